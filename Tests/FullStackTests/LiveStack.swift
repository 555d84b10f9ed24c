import ExampleApp
import Foundation
import ObjectManager
import StubServer
import TestSupport
import Testing

/// Every full-stack suite shares the process-wide shared manager and default store, so they run one
/// test at a time, under this parent suite.
@Suite(.serialized) enum FullStack {}

/// The repository's own `Fixtures/` folder: the same files the demo scenarios use.
let repositoryFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// A live stub server on a free port plus the example app's object manager pointed at it,
/// set up through `TestFactory` as every scenario is.
struct LiveStack {
    let server: StubServer
    let factory: TestFactory
    let manager: ObjectManager

    static func start() async throws -> LiveStack {
        let routes = try ServerRouteTable.load(
            contentsOf: repositoryFixtures.appendingPathComponent("server.yml"),
            fixtures: repositoryFixtures
        )
        let server = StubServer(fixtures: repositoryFixtures, routes: routes)
        let baseURL = try await server.start()
        let factory = RestaurantReviews.makeTestFactory()
        let manager = try await factory.setUp(baseURL: baseURL)
        return LiveStack(server: server, factory: factory, manager: manager)
    }

    var context: ManagedObjectContext {
        get throws {
            guard let store = manager.store else { throw ObjectManagerError.misconfigured("no store") }
            return store.mainContext
        }
    }

    func newReview(_ attributes: [String: AttributeValue]) throws -> ManagedObject {
        let entity = try #require(RestaurantReviews.model.entity(named: "Review"))
        return try ManagedObject(entity: entity, attributes: attributes)
    }

    func stop() async throws {
        try await factory.tearDown()
        await server.stop()
    }
}
