/// A relationship between entities, kept as a foreign key attribute or, many-to-many, in a join table.
///
/// A to-one relationship (`restaurant` on Review) keeps the destination's identification value in the
/// source's own attribute `foreignKey` (`Review.restaurantID`). A to-many relationship (`reviews` on
/// Restaurant) uses the destination's attribute `foreignKey` (`Review.restaurantID`) pointing back at the
/// source's identification value.
///
/// A many-to-many relationship (a book's authors, a conversation's participants) needs no attribute and no
/// entity of its own: the store keeps its links in a join table (see ``JoinTable``), one row per pair of
/// identification values. Declare it with ``manyToMany(name:destination:inverse:)`` on the side that owns
/// the join table; the other side may read the same links by naming the owner as its `inverse`:
///
/// ```swift
/// EntityDescription(name: "Book", attributes: [.init("bookID", .integer), .init("title", .string)],
///                   identificationAttribute: "bookID",
///                   relationships: [.manyToMany(name: "authors", destination: "Author")])   // table Book_authors
/// EntityDescription(name: "Author", attributes: [.init("authorID", .integer), .init("name", .string)],
///                   identificationAttribute: "authorID",
///                   relationships: [.manyToMany(name: "books", destination: "Book", inverse: "authors")])
/// ```
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name (`reviews`).
    public var name: String
    /// The name of the entity the relationship leads to.
    public var destination: String
    /// Whether the relationship leads to several objects (true for many-to-many ones).
    public var isToMany: Bool
    /// The foreign key attribute (empty, and unused, for a many-to-many relationship).
    public var foreignKey: String
    /// Whether the links live in a join table rather than in a foreign key; ``isToMany`` and
    /// ``foreignKey`` are then ignored.
    public var isManyToMany: Bool
    /// For a many-to-many relationship read from the destination's side: the destination's relationship
    /// that owns the join table (`authors` for Author's `books`). Nil for the owner and for foreign keys.
    public var inverse: String?

    /// A to-one or to-many relationship through the foreign key attribute `foreignKey`.
    public init(name: String, destination: String, isToMany: Bool = false, foreignKey: String) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.foreignKey = foreignKey
        self.isManyToMany = false
        self.inverse = nil
    }

    /// A many-to-many relationship through a join table, as Core Data and RestKit offer.
    ///
    /// Without `inverse`, this relationship owns the join table `Entity_name` (`Book_authors`), which the
    /// store creates. With `inverse`, it reads the join table of the destination's relationship of that
    /// name, which must be a many-to-many relationship back to this entity declared without an inverse.
    /// Both entities need an identification attribute: links are pairs of identification values.
    ///
    /// ```swift
    /// .manyToMany(name: "authors", destination: "Author")                  // on Book: owns Book_authors
    /// .manyToMany(name: "books", destination: "Book", inverse: "authors")  // on Author: the same links
    /// ```
    public static func manyToMany(name: String, destination: String, inverse: String? = nil)
        -> RelationshipDescription
    {
        var relationship = RelationshipDescription(name: name, destination: destination, isToMany: true, foreignKey: "")
        relationship.isManyToMany = true
        relationship.inverse = inverse
        return relationship
    }
}
