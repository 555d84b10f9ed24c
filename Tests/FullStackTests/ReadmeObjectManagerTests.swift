import Foundation
import ObjectManager
import StubServer
import Testing

// docs/object-manager.md's code, compiled and run against a stub server: the blocks between the markers
// are the page's, line for line (`ReadmeSnippetTests` holds the page to them).

// README: begin object manager
func loadBooks(from baseURL: URL) async throws -> EntityStore {
    let model = try EntityModel(entities: [
        EntityDescription(
            name: "Book",
            attributes: [.init("bookID", .integer), .init("title", .string), .init("published", .date)],
            identificationAttribute: "bookID"
        )
    ])
    let store = try EntityStore(model: model)  // in-memory SQLite (GRDB)
    let manager = ObjectManager(baseURL: baseURL, store: store)
    try manager.router.addRoute(Route(entity: "Book", method: .post, pathPattern: "/books"))
    try manager.router.addRoute(Route(name: "books", method: .get, pathPattern: "/books"))
    let books = EntityMapping(
        entity: "Book",
        attributes: ["id": "bookID", "title": "title", "published_on": "published"]
    )
    manager.addResponseDescriptor(ResponseDescriptor(mapping: books, method: .get, pathPattern: "/books"))
    manager.addResponseDescriptor(ResponseDescriptor(mapping: books, method: .post))
    manager.addRequestDescriptor(RequestDescriptor(entity: "Book", mapping: books.inverse(rootKey: "book")))
    ObjectManager.shared = manager

    try await manager.getObjects(forRouteNamed: "books")  // GET /books → mapped, upserted by bookID, saved
    let book = try store.mainContext.insert(entity: "Book", attributes: ["title": "Dune"])
    try await manager.postObject(book)  // POST {"book": {...}} → the answer mapped back onto `book`
    try manager.router.replacePathPattern(of: .class(entity: "Book", method: .post), with: "/422")  // `stub route`
    return store
}
// README: end object manager

// README: begin many-to-many
let library = try? EntityModel(entities: [
    EntityDescription(
        name: "Book",
        attributes: [.init("bookID", .integer), .init("title", .string)],
        identificationAttribute: "bookID",
        relationships: [.manyToMany(name: "authors", destination: "Author")]
    ),
    EntityDescription(
        name: "Author",
        attributes: [.init("authorID", .integer), .init("name", .string)],
        identificationAttribute: "authorID",
        relationships: [.manyToMany(name: "books", destination: "Book", inverse: "authors")]
    ),
])
// README: end many-to-many

extension FullStack {
    @Suite struct ReadmeObjectManagerTests {
        static let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ReadmeProject")

        @Test func theReadmesObjectManagerCodeLoadsAndPostsBooks() async throws {
            let fixtures = Self.project.appendingPathComponent("Fixtures")
            let routes = try ServerRouteTable.load(
                contentsOf: fixtures.appendingPathComponent("server.yml"),
                fixtures: fixtures
            )
            let server = StubServer(fixtures: fixtures, routes: routes)
            let baseURL = try await server.start()
            let previous = ObjectManager.shared
            defer { ObjectManager.shared = previous }
            do {
                let store = try await loadBooks(from: baseURL)
                let titles = try store.mainContext.fetch("Book").compactMap { $0["title"].stringValue }.sorted()
                #expect(titles == ["Dune", "Solaris"])
                let posted = server.journal.entries.filter { $0.method == "POST" }
                #expect(posted.map(\.path) == ["/books"])
                let sent = try JSONSerialization.jsonObject(with: try #require(posted.first).body)
                #expect(((sent as? [String: Any])?["book"] as? [String: Any])?["title"] as? String == "Dune")
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
        }

        @Test func theReadmesManyToManyModelHasItsJoinTable() throws {
            let model = try #require(library)
            #expect(model.joinTables.map(\.name) == ["Book_authors"])
        }
    }
}
