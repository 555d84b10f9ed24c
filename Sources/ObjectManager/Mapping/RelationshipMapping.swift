/// Maps a nested JSON object (to-one) or array of objects (to-many, many-to-many) onto a relationship,
/// with its own mapping; or, for a many-to-many relationship, an array of identification values.
///
/// Onto a many-to-many relationship, the array replaces the object's links (RestKit's replacement
/// policy): afterwards the object is linked to exactly the objects of the array, `[]` unlinks them all,
/// and a missing key or `null` leaves the links as they are. Nested objects are first mapped (upserted by
/// their identification attribute) into the destination entity; identification values link to whatever
/// object they name, creating none — the link shows once an object with that value is stored.
///
/// ```swift
/// // {"id": 1, "authors": [{"id": 7, "name": "Ann"}]}: Author 7 upserted, Book 1 linked to it.
/// RelationshipMapping(fromKeyPath: "authors", toRelationship: "authors", mapping: authorMapping)
/// // {"id": 1, "author_ids": [7, 9]}: Book 1 linked to Authors 7 and 9, which are not created.
/// RelationshipMapping(identificationsFromKeyPath: "author_ids", toRelationship: "authors")
/// ```
public struct RelationshipMapping: Sendable, Hashable {
    /// The dotted key path of the nested object or array in the source JSON.
    public var keyPath: String
    /// The relationship of the parent entity the nested objects connect through.
    public var relationship: String
    /// How each nested object maps onto the destination entity; nil when the JSON holds identification
    /// values instead of objects.
    public var mapping: EntityMapping?

    /// Nested objects at `keyPath`, each mapped with `mapping`, connected through `relationship`.
    public init(fromKeyPath keyPath: String, toRelationship relationship: String, mapping: EntityMapping) {
        self.keyPath = keyPath
        self.relationship = relationship
        self.mapping = mapping
    }

    /// Identification values at `keyPath` (an array, or one value) linked through the many-to-many
    /// `relationship`, replacing its links; `null` elements are skipped.
    public init(identificationsFromKeyPath keyPath: String, toRelationship relationship: String) {
        self.keyPath = keyPath
        self.relationship = relationship
        self.mapping = nil
    }
}
