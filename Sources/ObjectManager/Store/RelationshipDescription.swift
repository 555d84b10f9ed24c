/// A relationship between entities, kept as a foreign key attribute.
///
/// A to-one relationship (`restaurant` on Review) keeps the destination's identification value in the
/// source's own attribute `foreignKey` (`Review.restaurantID`). A to-many relationship (`reviews` on
/// Restaurant) uses the destination's attribute `foreignKey` (`Review.restaurantID`) pointing back at the
/// source's identification value.
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    public var destination: String
    public var isToMany: Bool
    public var foreignKey: String

    public init(name: String, destination: String, isToMany: Bool = false, foreignKey: String) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.foreignKey = foreignKey
    }
}
