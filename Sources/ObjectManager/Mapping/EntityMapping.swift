/// How JSON objects map onto objects of one entity (RestKit's `RKEntityMapping`).
///
/// ```swift
/// let mapping = EntityMapping(
///     entity: "Review",
///     attributes: ["id": "reviewID", "title": "title", "created_at": "createdAt"],
///     relationships: [RelationshipMapping(fromKeyPath: "restaurant", toRelationship: "restaurant", mapping: restaurants)],
///     dateFormats: [.iso8601, .pattern("MM/dd/yyyy")])
/// ```
public struct EntityMapping: Sendable, Hashable {
    /// The destination entity.
    public var entity: String
    /// JSON key path → attribute pairs, applied in order.
    public var attributeMappings: [AttributeMapping]
    /// Nested objects mapped onto relationships.
    public var relationshipMappings: [RelationshipMapping]
    /// The attributes whose values find an existing object to update; nil means the entity's identification attribute.
    public var identificationAttributes: [String]?
    /// How strings are read as dates, tried in order.
    public var dateFormats: [DateFormat]

    /// A mapping from JSON key paths to attributes (`["id": "reviewID"]`), applied in key path order.
    public init(
        entity: String,
        attributes: [String: String] = [:],
        identification: [String]? = nil,
        relationships: [RelationshipMapping] = [],
        dateFormats: [DateFormat] = [.iso8601]
    ) {
        self.init(
            entity: entity,
            attributeMappings: attributes.sorted { $0.key < $1.key }.map {
                AttributeMapping(fromKeyPath: $0.key, toAttribute: $0.value)
            },
            identification: identification,
            relationships: relationships,
            dateFormats: dateFormats
        )
    }

    /// A mapping from an ordered list of attribute mappings.
    public init(
        entity: String,
        attributeMappings: [AttributeMapping],
        identification: [String]? = nil,
        relationships: [RelationshipMapping] = [],
        dateFormats: [DateFormat] = [.iso8601]
    ) {
        self.entity = entity
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationships
        self.identificationAttributes = identification
        self.dateFormats = dateFormats
    }

    /// Adds attribute mappings where the key path and the attribute have the same names.
    public mutating func addAttributes(_ names: String...) {
        attributeMappings += names.map { AttributeMapping(fromKeyPath: $0, toAttribute: $0) }
    }

    /// Adds one key path → attribute mapping.
    public mutating func addAttribute(fromKeyPath keyPath: String, toAttribute attribute: String) {
        attributeMappings.append(AttributeMapping(fromKeyPath: keyPath, toAttribute: attribute))
    }

    /// Adds a relationship mapping.
    public mutating func addRelationship(
        fromKeyPath keyPath: String,
        toRelationship relationship: String,
        mapping: EntityMapping
    ) {
        relationshipMappings.append(
            RelationshipMapping(fromKeyPath: keyPath, toRelationship: relationship, mapping: mapping)
        )
    }

    /// Adds a mapping of identification values (`"author_ids": [7, 9]`) onto a many-to-many relationship.
    public mutating func addRelationship(
        identificationsFromKeyPath keyPath: String,
        toRelationship relationship: String
    ) {
        relationshipMappings.append(
            RelationshipMapping(identificationsFromKeyPath: keyPath, toRelationship: relationship)
        )
    }

    /// The request mapping that sends objects back in the same shape (attribute → key path), optionally under `rootKey`.
    public func inverse(rootKey: String? = nil) -> RequestMapping {
        RequestMapping(
            attributeMappings: attributeMappings.map {
                AttributeMapping(fromKeyPath: $0.keyPath, toAttribute: $0.attribute)
            },
            rootKey: rootKey
        )
    }
}
