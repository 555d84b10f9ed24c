/// Maps a nested JSON object (to-one) or array of objects (to-many) onto a relationship, with its own mapping.
public struct RelationshipMapping: Sendable, Hashable {
    /// The dotted key path of the nested object or array in the source JSON.
    public var keyPath: String
    /// The relationship of the parent entity the nested objects connect through.
    public var relationship: String
    /// How each nested object maps onto the destination entity.
    public var mapping: EntityMapping

    public init(fromKeyPath keyPath: String, toRelationship relationship: String, mapping: EntityMapping) {
        self.keyPath = keyPath
        self.relationship = relationship
        self.mapping = mapping
    }
}
