import Diagnostics
import Foundation
import ObjectManager
import Scenarios
import StubServer
import TestSupport
import Testing

extension FullStack {
    /// The loader, the stub server's route table and `TestFixture` reach the same fixtures and say the same
    /// thing about the ones they cannot reach: one rule, one message.
    @Suite struct FixtureRuleTests {
        @Test func theLoaderTheServerAndTestFixtureAgreeOnEveryName() throws {
            let layout = try FixtureLayout()
            let fixtures = layout.fixtures
            let loader = StepBuildContext(fixturesDirectory: fixtures)
            let testFixture = TestFixture(directory: fixtures)
            let location = SourceLocation(file: "a.yml", line: 1, column: 1)
            let names = ["review.json", "reviews/1.json", "alias.json", "out.json", "../secret.json", "reveiw.json"]
            for name in names {
                let serverError = serverMessage(for: name, fixtures: fixtures)
                let loaderError: String?
                do {
                    try loader.checkFixture(name, at: location)
                    loaderError = nil
                } catch {
                    loaderError = error.message
                }
                let testFixtureError: String?
                do {
                    _ = try testFixture.data(named: name)
                    testFixtureError = nil
                } catch {
                    testFixtureError = error.description
                }
                #expect(loader.fixtureExists(name) == testFixture.exists(named: name), "\(name)")
                #expect(loaderError == serverError, "\(name)")
                #expect(loaderError == testFixtureError, "\(name)")
            }
            #expect(loader.fixtureExists("alias.json") && !loader.fixtureExists("out.json"))
            #expect(
                serverMessage(for: "reveiw.json", fixtures: fixtures)
                    == "Fixture 'reveiw.json' not found in 'Fixtures'. Did you mean 'review.json'?"
            )
            #expect(
                serverMessage(for: "out.json", fixtures: fixtures)
                    == "Fixture 'out.json' is outside 'Fixtures'; fixtures are read only from inside it."
            )
        }

        /// The route table's error for a route serving `name`, or `nil` when it loads.
        func serverMessage(for name: String, fixtures: URL) -> String? {
            let yaml = "routes:\n  - { path: /a, fixture: \"\(name)\" }\n"
            do {
                _ = try ServerRouteTable.parse(yaml: yaml, file: "server.yml", fixtures: fixtures)
                return nil
            } catch {
                return error.diagnostics.first?.message
            }
        }
    }
}
