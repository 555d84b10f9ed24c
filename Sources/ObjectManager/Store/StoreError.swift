import Diagnostics

/// Why an entity store operation failed.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model has no entity of this name; `suggestions` are the nearest names it has.
    case unknownEntity(String, suggestions: [String])
    /// The entity has no attribute of this name; `suggestions` are the nearest names it has.
    case unknownAttribute(entity: String, attribute: String, suggestions: [String])
    /// The entity has no relationship of this name; `suggestions` are the nearest names it has.
    case unknownRelationship(entity: String, relationship: String, suggestions: [String])
    /// A value cannot be converted to the attribute's type.
    case invalidValue(entity: String, attribute: String, ConversionError)
    /// An attribute that must have a value is null: a non-optional one when its object is saved, or the
    /// identification value a link needs.
    case missingValue(entity: String, attribute: String)
    /// An operation needs the entity's identification attribute, and the entity has none.
    case noIdentificationAttribute(entity: String)
    /// Links are added and removed only on many-to-many relationships; others follow their foreign key.
    case notManyToMany(entity: String, relationship: String)
    /// An object of `found` was offered as the destination of a relationship to `destination`.
    case wrongDestination(entity: String, relationship: String, destination: String, found: String)
    /// SQLite failed; the message is SQLite's.
    case database(String)

    public var description: String {
        switch self {
        case .unknownEntity(let entity, let suggestions):
            "Unknown entity '\(entity)'." + Suggestions.didYouMean(suggestions: suggestions)
        case .unknownAttribute(let entity, let attribute, let suggestions):
            "Entity '\(entity)' has no attribute '\(attribute)'." + Suggestions.didYouMean(suggestions: suggestions)
        case .unknownRelationship(let entity, let relationship, let suggestions):
            "Entity '\(entity)' has no relationship '\(relationship)'."
                + Suggestions.didYouMean(suggestions: suggestions)
        case .invalidValue(let entity, let attribute, let error):
            "Invalid value for '\(entity).\(attribute)': \(error)"
        case .missingValue(let entity, let attribute):
            "Attribute '\(entity).\(attribute)' must have a value."
        case .noIdentificationAttribute(let entity):
            "Entity '\(entity)' has no identification attribute."
        case .notManyToMany(let entity, let relationship):
            "Relationship '\(entity).\(relationship)' is not many-to-many; set its foreign key instead."
        case .wrongDestination(let entity, let relationship, let destination, let found):
            "Relationship '\(entity).\(relationship)' leads to '\(destination)', not '\(found)'."
        case .database(let message):
            "Database error: \(message)"
        }
    }
}
