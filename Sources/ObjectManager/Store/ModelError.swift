/// Why an entity model is invalid.
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An entity, attribute or relationship has an empty name.
    case emptyName
    /// Two entities have this name.
    case duplicateEntity(String)
    /// An entity declares an attribute or relationship name twice.
    case duplicateAttribute(entity: String, attribute: String)
    /// An attribute or relationship name the store cannot use: one with a dot, or `rowid` (SQLite's row ID).
    case reservedAttribute(entity: String, attribute: String)
    /// The entity's identification attribute is not one of its attributes.
    case identificationAttributeMissing(entity: String, attribute: String)
    /// A relationship's destination is not an entity of the model.
    case unknownDestination(entity: String, relationship: String, destination: String)
    /// A relationship's foreign key is not an attribute of `owner` (the source for to-one, the destination for
    /// to-many).
    case foreignKeyNotAnAttribute(entity: String, relationship: String, foreignKey: String, owner: String)
    /// A relationship needs an identification attribute on `identifiedEntity`, which has none.
    case relationshipNeedsIdentification(entity: String, relationship: String, identifiedEntity: String)
    /// A many-to-many relationship's `inverse` is not a many-to-many relationship back to it that owns a join table.
    case invalidInverse(entity: String, relationship: String, inverse: String)
    /// A many-to-many relationship's join table has the name (ignoring case) of an entity or another join table.
    case joinTableNameTaken(entity: String, relationship: String, table: String)

    public var description: String {
        switch self {
        case .emptyName:
            "Entity, attribute and relationship names must not be empty."
        case .duplicateEntity(let entity):
            "Entity '\(entity)' is declared twice."
        case .duplicateAttribute(let entity, let attribute):
            "Entity '\(entity)' declares attribute or relationship '\(attribute)' twice."
        case .reservedAttribute(let entity, let attribute):
            "Entity '\(entity)' uses the reserved attribute name '\(attribute)'."
        case .identificationAttributeMissing(let entity, let attribute):
            "Entity '\(entity)' is identified by '\(attribute)', which is not one of its attributes."
        case .unknownDestination(let entity, let relationship, let destination):
            "Relationship '\(entity).\(relationship)' points at unknown entity '\(destination)'."
        case .foreignKeyNotAnAttribute(let entity, let relationship, let foreignKey, let owner):
            "Relationship '\(entity).\(relationship)' uses foreign key '\(foreignKey)', which is not an attribute of '\(owner)'."
        case .relationshipNeedsIdentification(let entity, let relationship, let identifiedEntity):
            "Relationship '\(entity).\(relationship)' needs an identification attribute on '\(identifiedEntity)'."
        case .invalidInverse(let entity, let relationship, let inverse):
            "Relationship '\(entity).\(relationship)' names '\(inverse)' as its inverse, which is not a many-to-many "
                + "relationship to '\(entity)' declared without an inverse (the side that owns the join table)."
        case .joinTableNameTaken(let entity, let relationship, let table):
            "Relationship '\(entity).\(relationship)' needs the join table '\(table)', whose name is already taken "
                + "by an entity or another join table."
        }
    }
}
