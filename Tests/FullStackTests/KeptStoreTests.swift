import Foundation
import ObjectManager
import Steps
import Testing

/// The hint printed when `KIF_SKIP_TEAR_DOWN` keeps the store: an `sqlite3` command for each table with
/// rows, the join tables of many-to-many relationships included. A store of its own: nothing shared.
struct KeptStoreTests {
    static let book = EntityDescription(
        name: "Book",
        attributes: [.init("bookID", .integer), .init("title", .string)],
        identificationAttribute: "bookID",
        relationships: [.manyToMany(name: "authors", destination: "Author")]
    )
    static let author = EntityDescription(
        name: "Author",
        attributes: [.init("authorID", .integer), .init("name", .string)],
        identificationAttribute: "authorID",
        relationships: [.manyToMany(name: "books", destination: "Book", inverse: "authors")]
    )
    static let kept = URL(fileURLWithPath: "/project/.scenario-run/last-store.sqlite")

    @Test func theHintListsJoinTablesWithRows() throws {
        let store = try EntityStore(model: EntityModel(entities: [Self.book, Self.author]))
        let context = store.mainContext
        let book = try context.insert(entity: "Book", attributes: ["bookID": 1, "title": "Good Omens"])
        let ann = try context.insert(entity: "Author", attributes: ["authorID": 7, "name": "Ann"])
        try context.addLink(from: book, to: ann, through: "authors")
        try context.save()
        #expect(
            KeptStore.hint(for: store, at: Self.kept) == [
                "KIF_SKIP_TEAR_DOWN: the last scenario's store is kept at /project/.scenario-run/last-store.sqlite",
                #"  sqlite3 /project/.scenario-run/last-store.sqlite 'select * from "Book"'"#,
                #"  sqlite3 /project/.scenario-run/last-store.sqlite 'select * from "Author"'"#,
                #"  sqlite3 /project/.scenario-run/last-store.sqlite 'select * from "Book_authors"'"#,
            ]
        )
    }

    @Test func anEmptyStoreNamesItsFirstTableAndAnyMoreAreCounted() throws {
        let empty = try EntityStore(model: EntityModel(entities: [Self.book, Self.author]))
        #expect(
            KeptStore.hint(for: empty, at: Self.kept).dropFirst() == [
                #"  sqlite3 /project/.scenario-run/last-store.sqlite 'select * from "Book"'"#
            ]
        )
        let entities = (1...5).map { EntityDescription(name: "E\($0)", attributes: [.init("x", .integer)]) }
        let full = try EntityStore(model: EntityModel(entities: entities))
        for entity in entities { _ = try full.mainContext.insert(entity: entity.name, attributes: ["x": 1]) }
        try full.mainContext.save()
        let hint = KeptStore.hint(for: full, at: Self.kept)
        #expect(hint.count == 5, "\(hint)")
        #expect(hint.last == "  sqlite3 /project/.scenario-run/last-store.sqlite .tables    # 2 more tables with rows")
    }
}
