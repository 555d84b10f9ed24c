/// The SQLite table that holds the links of a many-to-many relationship: one row per linked pair.
///
/// The owning relationship (declared without an inverse) names it: `authors` of Book is stored in
/// `Book_authors`, whose column `source` holds a Book's identification value and `destination` an
/// Author's, each pair once. The inverse relationship (`books` of Author) reads the same rows the other
/// way round. Deleting an object deletes its rows; ``EntityStore/removeAll()`` empties the table.
///
/// ```
/// sqlite> SELECT * FROM Book_authors;
/// source|destination
/// 1|7
/// 1|9
/// ```
public struct JoinTable: Sendable, Hashable {
    /// The column holding the owning entity's identification values.
    public static let sourceColumn = "source"
    /// The column holding the destination entity's identification values.
    public static let destinationColumn = "destination"

    /// `Entity_relationship` of the owning relationship (`Book_authors`).
    public let name: String
    /// The entity that owns the relationship (`Book`).
    public let entity: String
    /// The owning relationship (`authors`).
    public let relationship: String
    /// The entity at the other end (`Author`).
    public let destination: String
    /// The types of the two entities' identification attributes: the columns' types.
    let sourceType: AttributeType
    let destinationType: AttributeType

    /// The join table's name for `relationship` of `entity`.
    public static func name(entity: String, relationship: String) -> String {
        "\(entity)_\(relationship)"
    }

    init(
        entity: String,
        relationship: String,
        destination: String,
        sourceType: AttributeType,
        destinationType: AttributeType
    ) {
        self.name = Self.name(entity: entity, relationship: relationship)
        self.entity = entity
        self.relationship = relationship
        self.destination = destination
        self.sourceType = sourceType
        self.destinationType = destinationType
    }

    /// One relationship's view of a join table: the owner reads it as it is, an inverse reversed
    /// (its objects in `destination`, the related ones in `source`).
    struct Use: Sendable {
        var table: JoinTable
        var isReversed: Bool

        /// The column holding the identification values of the relationship's own objects.
        var ownColumn: String { isReversed ? JoinTable.destinationColumn : JoinTable.sourceColumn }
        /// The column holding the related objects' identification values.
        var otherColumn: String { isReversed ? JoinTable.sourceColumn : JoinTable.destinationColumn }
        /// The type of the related objects' identification values.
        var otherType: AttributeType { isReversed ? table.sourceType : table.destinationType }

        /// The row linking an object (`own`) to a related one (`other`).
        func pair(own: AttributeValue, other: AttributeValue) -> JoinTable.Pair {
            isReversed ? Pair(source: other, destination: own) : Pair(source: own, destination: other)
        }
    }

    /// One row: a source and a destination identification value.
    struct Pair: Sendable, Hashable {
        var source: AttributeValue
        var destination: AttributeValue

        /// The value in `column`.
        func value(in column: String) -> AttributeValue {
            column == JoinTable.sourceColumn ? source : destination
        }
    }
}
