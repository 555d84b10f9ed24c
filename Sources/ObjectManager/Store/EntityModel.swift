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
    /// The join tables of the many-to-many relationships, in declaration order of their owners.
    public let joinTables: [JoinTable]
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
        self.joinTables = try Self.joinTables(of: entities, index: index)
    }

    /// The entity named `name`, if any.
    public func entity(named name: String) -> EntityDescription? {
        index[name].map { entities[$0] }
    }

    /// The entity names in declaration order.
    public var entityNames: [String] {
        entities.map(\.name)
    }

    /// The join table `relationship` of `entity` reads, and from which side; nil unless many-to-many.
    func joinTableUse(of entity: String, _ relationship: RelationshipDescription) -> JoinTable.Use? {
        guard relationship.isManyToMany else { return nil }
        let (owner, name) = relationship.inverse.map { (relationship.destination, $0) } ?? (entity, relationship.name)
        let tableName = JoinTable.name(entity: owner, relationship: name)
        guard let table = joinTables.first(where: { $0.name == tableName }) else { return nil }
        return JoinTable.Use(table: table, isReversed: relationship.inverse != nil)
    }

    /// The join tables of the owning many-to-many relationships; their names must be unique and differ
    /// from every entity's, ignoring case as SQLite does.
    private static func joinTables(of entities: [EntityDescription], index: [String: Int]) throws(ModelError)
        -> [JoinTable]
    {
        var taken = Set(entities.map { $0.name.lowercased() })
        var tables: [JoinTable] = []
        for entity in entities {
            for relationship in entity.relationships where relationship.isManyToMany && relationship.inverse == nil {
                // Validation has checked the destination and both identification attributes.
                guard let position = index[relationship.destination],
                    let sourceType = identificationType(of: entity),
                    let destinationType = identificationType(of: entities[position])
                else { continue }
                let table = JoinTable(
                    entity: entity.name,
                    relationship: relationship.name,
                    destination: relationship.destination,
                    sourceType: sourceType,
                    destinationType: destinationType
                )
                guard taken.insert(table.name.lowercased()).inserted else {
                    throw .joinTableNameTaken(entity: entity.name, relationship: relationship.name, table: table.name)
                }
                tables.append(table)
            }
        }
        return tables
    }

    private static func identificationType(of entity: EntityDescription) -> AttributeType? {
        entity.identificationAttribute.flatMap { entity.attribute(named: $0) }?.type
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
            if relationship.isManyToMany {
                try validateManyToMany(relationship, of: entity, destination: destination)
                continue
            }
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

    /// Both ends identified; an inverse names a many-to-many relationship of the destination back to this
    /// entity that owns its join table (declared without an inverse itself).
    private static func validateManyToMany(
        _ relationship: RelationshipDescription,
        of entity: EntityDescription,
        destination: EntityDescription
    ) throws(ModelError) {
        for identified in [entity, destination] where identified.identificationAttribute == nil {
            throw .relationshipNeedsIdentification(
                entity: entity.name,
                relationship: relationship.name,
                identifiedEntity: identified.name
            )
        }
        guard let inverse = relationship.inverse else { return }
        guard let owner = destination.relationship(named: inverse), owner.isManyToMany,
            owner.destination == entity.name, owner.inverse == nil
        else {
            throw .invalidInverse(
                entity: entity.name,
                relationship: relationship.name,
                inverse: "\(destination.name).\(inverse)"
            )
        }
    }
}

extension EntityModel {
    /// Collects entity descriptions, then validates them once into an ``EntityModel``.
    public struct Builder: Sendable {
        /// The entities added so far, in order.
        public private(set) var entities: [EntityDescription] = []

        /// Makes an empty builder.
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
