/// A validated, frozen set of entity descriptions: the schema of an ``EntityStore``.
///
/// ```swift
/// var builder = EntityModel.Builder()
/// builder.add(EntityDescription(name: "Review", attributes: [.init("reviewID", .integer), .init("title", .string)],
///                               identificationAttribute: "reviewID"))
/// let model = try builder.build()
/// ```
public struct EntityModel: Sendable, Hashable {
    /// The entities in declaration order.
    public let entities: [EntityDescription]
    private let index: [String: Int]

    /// A validated model of `entities`.
    public init(entities: [EntityDescription]) throws(ModelError) {
        var index: [String: Int] = [:]
        for (position, entity) in entities.enumerated() {
            guard !entity.name.isEmpty else { throw .emptyName }
            guard index[entity.name] == nil else { throw .duplicateEntity(entity.name) }
            index[entity.name] = position
        }
        for entity in entities {
            try Self.validate(entity, in: entities, index: index)
        }
        self.entities = entities
        self.index = index
    }

    /// The entity named `name`, if any.
    public func entity(named name: String) -> EntityDescription? {
        index[name].map { entities[$0] }
    }

    /// The entity names in declaration order.
    public var entityNames: [String] {
        entities.map(\.name)
    }

    private static func validate(
        _ entity: EntityDescription,
        in entities: [EntityDescription],
        index: [String: Int]
    ) throws(ModelError) {
        var names: Set<String> = []
        for name in entity.attributeNames + entity.relationships.map(\.name) {
            guard !name.isEmpty else { throw .emptyName }
            guard !name.contains(".") else { throw .reservedAttribute(entity: entity.name, attribute: name) }
            guard names.insert(name).inserted else { throw .duplicateAttribute(entity: entity.name, attribute: name) }
        }
        if entity.attributeNames.contains(where: { $0.lowercased() == "rowid" }) {
            throw .reservedAttribute(entity: entity.name, attribute: "rowid")
        }
        if let identification = entity.identificationAttribute, entity.attribute(named: identification) == nil {
            throw .identificationAttributeMissing(entity: entity.name, attribute: identification)
        }
        for relationship in entity.relationships {
            guard let position = index[relationship.destination] else {
                throw .unknownDestination(
                    entity: entity.name,
                    relationship: relationship.name,
                    destination: relationship.destination
                )
            }
            let destination = entities[position]
            let owner = relationship.isToMany ? destination : entity
            let identified = relationship.isToMany ? entity : destination
            guard owner.attribute(named: relationship.foreignKey) != nil else {
                throw .foreignKeyNotAnAttribute(
                    entity: entity.name,
                    relationship: relationship.name,
                    foreignKey: relationship.foreignKey,
                    owner: owner.name
                )
            }
            guard identified.identificationAttribute != nil else {
                throw .relationshipNeedsIdentification(
                    entity: entity.name,
                    relationship: relationship.name,
                    identifiedEntity: identified.name
                )
            }
        }
    }
}

extension EntityModel {
    /// Collects entity descriptions, then validates them once into an ``EntityModel``.
    public struct Builder: Sendable {
        public private(set) var entities: [EntityDescription] = []

        public init() {}

        /// Adds an entity.
        public mutating func add(_ entity: EntityDescription) {
            entities.append(entity)
        }

        /// Adds an entity built from its parts.
        public mutating func addEntity(
            _ name: String,
            attributes: [AttributeDescription],
            identificationAttribute: String? = nil,
            relationships: [RelationshipDescription] = []
        ) {
            add(
                EntityDescription(
                    name: name,
                    attributes: attributes,
                    identificationAttribute: identificationAttribute,
                    relationships: relationships
                )
            )
        }

        /// The validated, frozen model.
        public func build() throws(ModelError) -> EntityModel {
            try EntityModel(entities: entities)
        }
    }
}
