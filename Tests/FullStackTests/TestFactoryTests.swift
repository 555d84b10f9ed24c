import Foundation
import ObjectManager
import Synchronization
import TestSupport
import Testing

extension FullStack {
    /// Factories that need no server: `TestFactory` with an in-memory transport. Under `FullStack`
    /// because set-up replaces the process-wide shared instances.
    @Suite struct TestFactoryTests {
        static let model: EntityModel = {
            do {
                return try EntityModel(entities: [
                    EntityDescription(
                        name: "Restaurant",
                        attributes: [.init("restaurantID", .integer), .init("name", .string)],
                        identificationAttribute: "restaurantID"
                    )
                ])
            } catch { fatalError("\(error)") }
        }()

        func factory() -> TestFactory {
            let factory = TestFactory(
                model: Self.model,
                makeClient: { url in
                    HTTPClient(
                        baseURL: url,
                        transport: InMemoryTransport { request in HTTPResponse(status: 200, url: request.url) },
                        reachabilityProbe: FixedReachabilityProbe(.reachableViaWiFi)
                    )
                }
            )
            factory.defineFactory(
                "restaurant",
                entity: "Restaurant",
                attributes: ["restaurantID": 12345, "name": "Place ${sequence}"]
            )
            return factory
        }

        @Test func buildsWithOverridesAndSequences() async throws {
            let factory = factory()
            let manager = try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            let first = try factory.object(fromFactory: "restaurant")
            let second = try factory.object(fromFactory: "restaurant", properties: ["restaurantID": 2])
            #expect(first["name"] == .string("Place 1"))
            #expect(second["name"] == .string("Place 2"))
            #expect(second["restaurantID"] == .integer(2))
            #expect(try manager.store?.mainContext.count("Restaurant") == 2)
            try await factory.tearDown()
        }

        @Test func eachFactoryCountsItsOwnSequence() async throws {
            let factory = factory()
            factory.defineFactory("bistro", entity: "Restaurant", attributes: ["name": "Bistro ${sequence}"])
            try await factory.setUp(baseURL: URL(literal: "http://example.invalid"))
            let names = try ["restaurant", "bistro", "restaurant", "bistro", "bistro"].map { name in
                try factory.object(fromFactory: name)["name"]
            }
            #expect(names == ["Place 1", "Bistro 1", "Place 2", "Bistro 2", "Bistro 3"])
            try await factory.setUp(baseURL: URL(literal: "http://example.invalid"))
            #expect(try factory.object(fromFactory: "bistro")["name"] == .string("Bistro 1"), "set-up resets each")
            try await factory.tearDown()
        }

        @Test func sharedObjectsAreMemoizedUntilTheNextSetUp() async throws {
            let factory = factory()
            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            let shared = try factory.sharedObject(fromFactory: "restaurant")
            #expect(try factory.sharedObject(fromFactory: "restaurant") === shared)
            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            #expect(try factory.sharedObject(fromFactory: "restaurant") !== shared)
            try await factory.tearDown()
        }

        @Test func unknownFactoryIsAnErrorWithASuggestion() async throws {
            let factory = factory()
            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            #expect(throws: TestFactoryError.unknownFactory("resturant", suggestions: ["restaurant"])) {
                try factory.object(fromFactory: "resturant")
            }
            #expect(
                TestFactoryError.unknownFactory("resturant", suggestions: ["restaurant"]).description
                    == "Unknown factory 'resturant'. Did you mean 'restaurant'?"
            )
            try await factory.tearDown()
        }

        @Test func setUpAfterTearDownStartsFromAnEmptyStoreEvenWhenTheDatabaseIsReused() async throws {
            let factory = factory()
            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            let first = try #require(EntityStore.defaultStore)
            let kept = try factory.object(fromFactory: "restaurant")
            try first.mainContext.save()
            try await factory.tearDown()

            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            let second = try #require(EntityStore.defaultStore)
            #expect(try second.countSaved("Restaurant") == 0)
            #expect(try second.mainContext.count("Restaurant") == 0)
            #expect(kept.context == nil)
            let object = try factory.object(fromFactory: "restaurant")
            #expect(object["name"] == .string("Place 1"), "sequences start again")
            try second.mainContext.save()
            #expect(try second.countSaved("Restaurant") == 1)
            try await factory.tearDown()

            // Without a tear-down in between (KIF_SKIP_TEAR_DOWN), the kept store stays as it was.
            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            let third = try #require(EntityStore.defaultStore)
            _ = try factory.object(fromFactory: "restaurant")
            try third.mainContext.save()
            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            #expect(try third.countSaved("Restaurant") == 1)
            #expect(EntityStore.defaultStore !== third)
            try await factory.tearDown()
        }

        @Test func hooksRunAndTearDownDropsTheSharedInstances() async throws {
            let factory = factory()
            let calls = Recorder<String>()
            factory.addSetUpHook { _ in calls.append("set up") }
            factory.addTearDownHook { _ in calls.append("tear down") }
            try await factory.setUp(baseURL: URL(string: "http://example.invalid")!)
            #expect(ObjectManager.shared != nil)
            #expect(EntityStore.defaultStore != nil)
            try await factory.tearDown()
            #expect(calls.all == ["set up", "tear down"])
            #expect(ObjectManager.shared == nil)
            #expect(EntityStore.defaultStore == nil)
        }
    }
}
