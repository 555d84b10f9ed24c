/// An entity: its attributes (one SQLite column each), identification attribute and relationships.
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name (`Restaurant`), its table in the store.
    public var name: String
    /// The entity's attributes, in declaration order.
    public var attributes: [AttributeDescription]
    /// The attribute whose value identifies an object (unique in the store), used for upserts and relationships.
    public var identificationAttribute: String?
    /// The entity's relationships to other entities.
    public var relationships: [RelationshipDescription]

    /// Makes an entity; ``EntityModel`` validates it with the other entities.
    ///
    /// ```swift
    /// EntityDescription(name: "Restaurant", attributes: [.init("restaurantID", .integer), .init("name", .string)],
    ///                   identificationAttribute: "restaurantID")
    /// ```
    public init(
        name: String,
        attributes: [AttributeDescription],
        identificationAttribute: String? = nil,
        relationships: [RelationshipDescription] = []
    ) {
        self.name = name
        self.attributes = attributes
        self.identificationAttribute = identificationAttribute
        self.relationships = relationships
    }

    /// The attribute named `name`, if any.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndex(named: name).map { attributes[$0] }
    }

    /// The relationship named `name`, if any.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The position of the attribute named `name` in ``attributes``, if any (the first, should an app's
    /// own description name one twice).
    func attributeIndex(named name: String) -> Int? {
        attributes.firstIndex { $0.name == name }
    }

    /// `values` by attribute position as a dictionary by name (values past the attributes are dropped; a
    /// name written twice keeps its first value).
    func named(_ values: [AttributeValue]) -> [String: AttributeValue] {
        Self.named(values, attributes)
    }

    /// `values` by the position of `attributes`, as ``named(_:)``.
    static func named(_ values: [AttributeValue], _ attributes: [AttributeDescription]) -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        result.reserveCapacity(attributes.count)
        for (attribute, value) in zip(attributes, values) where result[attribute.name] == nil {
            result[attribute.name] = value
        }
        return result
    }

    /// The attribute names in declaration order.
    public var attributeNames: [String] {
        attributes.map(\.name)
    }
}
