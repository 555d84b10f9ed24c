import Foundation
import ObjectManager
import StubServer
import Testing

/// The RestKit testing guide's server: `/articles/:category/:id`, `/offline`, `/error`.
extension FullStack {
    @Suite struct TestingGuideTests {
        static let model: EntityModel = {
            do {
                return try EntityModel(entities: [
                    EntityDescription(
                        name: "Article",
                        attributes: [
                            .init("title", .string), .init("author", .string), .init("tags", .json),
                            .init("createdAt", .date),
                        ],
                        identificationAttribute: "title"
                    )
                ])
            } catch { fatalError("\(error)") }
        }()

        static let articleMapping = EntityMapping(
            entity: "Article",
            attributes: ["title": "title", "author": "author", "tags": "tags", "created_at": "createdAt"],
            dateFormats: [.iso8601, .pattern("MM/dd/yyyy")]
        )

        func start() async throws -> (StubServer, ObjectManager) {
            let routes = try ServerRouteTable.load(contentsOf: repositoryFixtures.appendingPathComponent("server.yml"))
            let server = StubServer(fixtures: repositoryFixtures, routes: routes)
            let baseURL = try await server.start()
            let manager = ObjectManager(baseURL: baseURL, store: try EntityStore(model: Self.model))
            manager.addResponseDescriptor(
                ResponseDescriptor(
                    mapping: Self.articleMapping,
                    method: .get,
                    pathPattern: "/articles/:category/:id",
                    keyPath: "article"
                )
            )
            await manager.client.startMonitoringReachability()
            return (server, manager)
        }

        @Test func articleIsMappedWithTagsAndDate() async throws {
            let (server, manager) = try await start()
            let result = try await manager.getObjects(atPath: "/articles/technology/12")
            let article = try #require(result.firstObject)
            #expect(article["title"] == .string("RestKit Unit Testing"))
            #expect(article["author"] == .string("Blake Watters"))
            #expect(article["tags"] == .json(["RestKit", "testing", "tutorials"]))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let expected = calendar.date(from: DateComponents(year: 2012, month: 3, day: 1))!
            #expect(article["createdAt"] == .date(expected))
            #expect(server.journal.entries.map(\.path) == ["/articles/technology/12"])
            await server.stop()
        }

        @Test func offlineIs503AndErrorIsMapped() async throws {
            let (server, manager) = try await start()
            let offline = try await #require(throws: ObjectManagerError.self) {
                try await manager.getObjects(atPath: "/offline")
            }
            #expect(offline.response?.status == 503)
            let error = try await #require(throws: ObjectManagerError.self) {
                try await manager.getObjects(atPath: "/error")
            }
            #expect(error.response?.status == 400)
            #expect(error.description == "An error occurred!!")
            await server.stop()
        }

        @Test func mappingTestPassesForRightExpectationsAndReportsEachWrongOne() throws {
            let fixture = TestFixture(directory: repositoryFixtures)
            let json = try fixture.json(named: "article.json")
            let source = try #require(json[keyPath: "article"])

            var right = MappingTest(mapping: Self.articleMapping, sourceObject: source, model: Self.model)
            right.expect(from: "title", to: "title", value: "RestKit Unit Testing")
            right.expect(from: "author", to: "author")
            right.expect(
                from: "tags",
                to: "tags",
                passing: { value in
                    if case .json(.array(let tags)) = value { return tags.count == 3 }
                    return false
                }
            )
            right.expect(from: "created_at", to: "createdAt")
            try right.verify()

            var wrong = MappingTest(mapping: Self.articleMapping, sourceObject: source, model: Self.model)
            wrong.expect(from: "title", to: "title", value: "RestKit Testing")
            wrong.expect(from: "author", to: "name")
            wrong.expect(from: "tags", to: "tags", passing: { _ in false })
            let error = try #require(throws: MappingTestError.self) { try wrong.verify() }
            guard case .unmetExpectations(let failures) = error else { Issue.record("unexpected \(error)"); return }
            #expect(failures.count == 3)
            #expect(failures.contains { $0.contains("RestKit Testing") })
            #expect(failures.contains { $0.contains("name") })
        }
    }
}
