import Foundation
import ObjectManager
import StubServer
import TestSupport
import Testing

// The code of docs/talk-to-the-api.md, docs/the-store.md and docs/reachability-and-the-queue.md, compiled
// and run against a real stub server: the blocks between the markers are the pages', line for line
// (`ReadmeSnippetTests` holds the pages to them).

// README: begin talk to the api
/// A manager for a books API: a model, routes, and the mapping both ways.
func booksManager(baseURL: URL) throws -> ObjectManager {
    let model = try EntityModel(entities: [
        EntityDescription(
            name: "Book",
            attributes: [
                .init("bookID", .integer), .init("title", .string), .init("rating", .integer, isOptional: true),
            ],
            identificationAttribute: "bookID"
        )
    ])
    let manager = ObjectManager(baseURL: baseURL, store: try EntityStore(model: model))
    try manager.router.addRoute(Route(name: "search", method: .get, pathPattern: "/books/search?q=:query"))
    for method in [HTTPMethod.get, .post, .put, .patch, .delete] {
        let path: PathPattern = method == .post ? "/books" : "/books/:bookID"
        try manager.router.addRoute(Route(entity: "Book", method: method, pathPattern: path))
    }
    let books = EntityMapping(entity: "Book", attributes: ["id": "bookID", "title": "title", "rating": "rating"])
    manager.addResponseDescriptor(ResponseDescriptor(mapping: books))
    manager.addRequestDescriptor(RequestDescriptor(entity: "Book", mapping: books.inverse(rootKey: "book")))
    manager.errorMapping = ErrorMapping(keyPaths: ["error"])  // where an error answer says why
    manager.client.setDefaultHeader("Authorization", to: "Bearer secret-token")  // sent with every request
    return manager
}

/// Every verb, parameters, and a failure's HTTP status.
func talkToTheAPI(_ manager: ObjectManager) async throws -> (titles: [String], status: Int?, message: String?) {
    // GET a path; its parameters become the query: GET /books?page=2
    let page = try await manager.getObjects(atPath: "/books", parameters: ["page": "2"])
    let titles = page.objects.compactMap { $0["title"].stringValue }  // the mapped (and saved) objects

    // GET a named route; parameters fill its placeholders: GET /books/search?q=dune
    try await manager.getObjects(forRouteNamed: "search", parameters: ["query": "dune"])

    // POST, PUT, PATCH and DELETE an object through its class route
    guard let context = manager.store?.mainContext else { return ([], nil, nil) }
    let book = try context.insert(entity: "Book", attributes: ["title": "Kindred"])
    try await manager.postObject(book)  // POST /books {"book": {...}}; the answer mapped back onto `book`
    try book.setValue(.integer(5), forAttribute: "rating")
    try await manager.send(book, method: .patch)  // PATCH /books/7
    try await manager.putObject(book)  // PUT /books/7
    try await manager.deleteObject(book)  // DELETE /books/7; deleted from the store

    // A failure says what the server answered
    do {
        try await manager.postObject(try context.insert(entity: "Book", attributes: ["title": "Dune"]))
        return (titles, nil, nil)
    } catch let error as ObjectManagerError {
        return (titles, error.httpStatus, error.errorMessage)  // 422, "A book of that title exists."
    }
}
// README: end talk to the api

// README: begin the store
/// Finding, reading and changing stored objects.
func useTheStore(_ store: EntityStore) throws -> (title: String?, count: Int) {
    let context = store.mainContext
    let book = try context.insert(entity: "Book", attributes: ["bookID": 1, "title": "Dune"])
    try context.save()  // nothing is in the database until saved

    // Find one by its identification attribute, or many by attribute values
    let found = try context.existingObject(entity: "Book", identifiedBy: .integer(1))
    let dunes = try context.fetch("Book", where: ["title": "Dune"])

    // Read and set attributes: an AttributeValue (.string, .integer, .double, .boolean, .date, .json, .null)
    let title = found?["title"].stringValue
    try book.setValue(.string("Dune Messiah"), forAttribute: "title")
    try context.save()
    return (title, dunes.count + (try context.count("Book", where: ["title": "Dune Messiah"])))
}
// README: end the store

// README: begin reachability and the queue
/// Hearing the network come and go, and holding requests back.
func followTheNetwork(_ manager: ObjectManager) async throws -> [ReachabilityStatus] {
    let heard = LockedStatuses()
    let observer = NotificationCenter.default.addObserver(
        forName: .reachabilityDidChange,
        object: manager.client,
        queue: nil
    ) { note in
        if let status = note.userInfo?[ReachabilityStatus.userInfoKey] as? ReachabilityStatus { heard.append(status) }
    }
    defer { NotificationCenter.default.removeObserver(observer) }

    manager.client.stubReachability(.notReachable)  // as if offline: requests fail with .offline
    manager.client.stubReachability(.reachableViaWiFi)

    manager.queue.isSuspended = true  // requests wait in the queue...
    let waiting = Task { try await manager.getObjects(atPath: "/books") }
    while manager.queue.pendingCount == 0 { await Task.yield() }
    manager.queue.isSuspended = false  // ...until it is resumed
    _ = try await waiting.value
    return heard.all
}
// README: end reachability and the queue

/// Statuses heard on any thread.
final class LockedStatuses: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [ReachabilityStatus] = []
    func append(_ status: ReachabilityStatus) { lock.withLock { statuses.append(status) } }
    var all: [ReachabilityStatus] { lock.withLock { statuses } }
}

extension FullStack {
    @Suite struct APIGuideTests {
        static let routes = """
            routes:
              - { path: /books, method: GET, when: { query: { page: "2" } }, json: [ { id: 3, title: Kindred }, { id: 4, title: Solaris } ] }
              - { path: /books/search, method: GET, when: { query: { q: dune } }, json: [ { id: 1, title: Dune } ] }
              - { path: /books, method: GET, json: [] }
              - { path: /books, method: POST, when: { json: { book: { title: Dune } } }, status: 422, json: { error: A book of that title exists. } }
              - { path: /books, method: POST, status: 201, json: { id: 7, title: Kindred } }
              - { path: "/books/:bookID", method: PATCH, json: { id: 7, title: Kindred, rating: 5 } }
              - { path: "/books/:bookID", method: PUT, json: { id: 7, title: Kindred, rating: 5 } }
              - { path: "/books/:bookID", method: DELETE, status: 204, body: "" }

            """

        static func server() throws -> StubServer {
            let fixtures = TemporaryFolder.processScratch.appendingPathComponent("guide-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
            return StubServer(fixtures: fixtures, routes: try ServerRouteTable.parse(yaml: routes, file: "server.yml"))
        }

        @Test func everyVerbParametersHeadersAndAFailuresStatus() async throws {
            let server = try Self.server()
            let manager = try booksManager(baseURL: try await server.start())
            let (titles, status, message) = try await talkToTheAPI(manager)
            #expect(titles == ["Kindred", "Solaris"])
            #expect(status == 422)
            #expect(message == "A book of that title exists.")
            let sent = server.journal.entries.map { "\($0.method) \($0.path)" + ($0.query.map { "?\($0)" } ?? "") }
            #expect(
                sent == [
                    "GET /books?page=2", "GET /books/search?q=dune", "POST /books", "PATCH /books/7", "PUT /books/7",
                    "DELETE /books/7", "POST /books",
                ]
            )
            #expect(server.journal.entries.allSatisfy { $0.headers[field: "Authorization"] == "Bearer secret-token" })
            #expect(try manager.store?.mainContext.existingObject(entity: "Book", identifiedBy: .integer(7)) == nil)
            await manager.shutDown()
            await server.stop()
        }

        /// A failure carries what the server answered: its status, its body as text and the mapped message;
        /// a failure with no answer has none of them.
        @Test func aFailureCarriesTheAnswersStatusBodyAndMessage() async throws {
            let server = try Self.server()
            let manager = try booksManager(baseURL: try await server.start())
            let context = try #require(manager.store?.mainContext)
            let book = try context.insert(entity: "Book", attributes: ["title": "Dune"])
            do {
                try await manager.postObject(book)
                Issue.record("the 422 was not thrown")
            } catch {
                #expect(error.httpStatus == 422)
                #expect(error.errorBody == #"{"error":"A book of that title exists."}"#)
                #expect(error.errorMessage == "A book of that title exists.")
            }
            await server.stop()
            do {
                try await manager.getObjects(atPath: "/books")
                Issue.record("a stopped server answered")
            } catch {
                #expect(error.httpStatus == nil && error.errorBody == nil && error.errorMessage == nil, "\(error)")
            }
            await manager.shutDown()
        }

        @Test func theStoreFindsReadsAndSets() throws {
            let model = try EntityModel(entities: [
                EntityDescription(
                    name: "Book",
                    attributes: [.init("bookID", .integer), .init("title", .string)],
                    identificationAttribute: "bookID"
                )
            ])
            let (title, count) = try useTheStore(try EntityStore(model: model))
            #expect(title == "Dune")
            #expect(count == 2)
        }

        @Test func reachabilityIsHeardAndASuspendedQueueHoldsRequests() async throws {
            let server = try Self.server()
            let manager = try booksManager(baseURL: try await server.start())
            let heard = try await followTheNetwork(manager)
            #expect(heard == [.notReachable, .reachableViaWiFi])
            #expect(server.journal.entries.map(\.path) == ["/books"])
            await manager.shutDown()
            await server.stop()
        }
    }
}
