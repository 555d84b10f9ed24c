import ExampleApp
import Foundation
import ObjectManager
import ScenarioTesting
import Scenarios
import Testing

extension FullStack {
    /// The repository's demo suite, run in-process through `ScenarioTesting` as a user's package would.
    @Suite struct DemoSuiteTests {
        static let repositoryRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        @Test func demoScenariosPass() async throws {
            let summary = try await ScenarioTesting.run(
                app: RestaurantReviews.appUnderTest,
                directory: Self.repositoryRoot,
                environment: [:]
            )
            #expect(summary.failed == 0)
            #expect(summary.passed >= 26)
        }

        /// Two suites' runs at once (Swift Testing runs suites in parallel) take turns: every run shares the
        /// app's object manager and store, and without the library's gate valid scenarios of both failed.
        /// Ten rounds of two runs started together, all green.
        @Test func runsStartedTogetherTakeTurns() async throws {
            for _ in 0..<10 {
                async let first = ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: Self.repositoryRoot,
                    paths: ["Scenarios/reviews.yml"],
                    environment: [:]
                )
                async let second = ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: Self.repositoryRoot,
                    paths: ["Scenarios/store.yml"],
                    environment: [:]
                )
                let (a, b) = try await (first, second)
                #expect(a.failed == 0 && a.passed > 0, "\(a.line)")
                #expect(b.failed == 0 && b.passed > 0, "\(b.line)")
            }
        }

        /// Tags select as on the command line: an expression selects; a malformed one, or a tag no scenario
        /// has, is an error naming the nearest tag instead of a run of nothing.
        @Test func tagsSelectAndATypoIsAnError() async throws {
            let queue = try await ScenarioTesting.run(
                app: RestaurantReviews.appUnderTest,
                directory: Self.repositoryRoot,
                tags: ["queue and not reachability"],
                environment: [:]
            )
            #expect(queue.failed == 0 && queue.passed >= 1)
            await #expect { () async throws in
                _ = try await ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: Self.repositoryRoot,
                    tags: ["queeu"],
                    environment: [:]
                )
            } throws: { error in
                "\(error)".contains("@queue")
            }
            await #expect(throws: (any Error).self) {
                _ = try await ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: Self.repositoryRoot,
                    tags: ["queue &&"],
                    environment: [:]
                )
            }
        }

        /// `PATH:LINE` selects as on the command line: a row's line that row, any line of a scenario that
        /// scenario; a line inside no scenario is an error naming where the file's scenarios start.
        @Test func pathLineSelectsAsOnTheCommandLine() async throws {
            let chosen = ["Scenarios/reviews.yml:14:26"]
            let summary = try await ScenarioTesting.run(
                app: RestaurantReviews.appUnderTest,
                directory: Self.repositoryRoot,
                paths: chosen,
                environment: [:]
            )
            #expect(summary.passed == 2 && summary.failed == 0)
            let cases = ScenarioTesting.scenarios(
                app: RestaurantReviews.appUnderTest,
                directory: Self.repositoryRoot,
                paths: chosen,
                environment: [:]
            )
            #expect(
                cases.map(\.testDescription) == [
                    "Reviews: Posting a review the server answers with 422",
                    "Reviews: Posting a review while offline sends nothing",
                ]
            )
            await #expect { () async throws in
                _ = try await ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: Self.repositoryRoot,
                    paths: ["Scenarios/reviews.yml:999"],
                    environment: [:]
                )
            } throws: { error in
                "\(error)".hasSuffix(
                    "Scenarios/reviews.yml:999; its scenarios start at lines 10, 25, 34, 41, 52, 69, 81, 91."
                )
            }
        }

        /// Each demo scenario its own test case in `swift test`, named by feature and scenario.
        @Test(arguments: ScenarioTesting.scenarios(app: RestaurantReviews.appUnderTest, directory: repositoryRoot))
        func demoScenario(_ scenario: ScenarioCase) async throws {
            let summary = try await ScenarioTesting.run(scenario)
            #expect(summary.passed == 1)
        }

        @Test func theCasesAreTheScenariosNamedByFeature() {
            let names = ScenarioTesting.scenarios(app: RestaurantReviews.appUnderTest, directory: Self.repositoryRoot)
                .map(\.testDescription)
            #expect(names.count >= 26)
            #expect(names.contains("Reviews: Posting a review the server answers with 422"))
        }

        /// A case printed, described or dumped (a failing test prints its arguments) shows its name only, never
        /// the environment it was loaded with: a CI log must not get its secrets.
        @Test func aCaseNeverShowsItsEnvironment() throws {
            let cases = ScenarioTesting.scenarios(
                app: RestaurantReviews.appUnderTest,
                directory: Self.repositoryRoot,
                environment: ["API_TOKEN": "s3cr3t-token"]
            )
            let first = try #require(cases.first)
            var dumped = ""
            dump(first, to: &dumped)
            for shown in [String(describing: first), String(reflecting: first), "\(first)", dumped] {
                #expect(!shown.contains("s3cr3t-token"), "\(shown)")
                #expect(shown.contains(first.testDescription), "\(shown)")
            }
        }

        /// A scenario with `skip:` is never counted as passed: its case says skipped in its name (and is
        /// cancelled when run); a whole-project run counts it skipped.
        @Test func aSkippedScenarioIsNeverAPass() async throws {
            let project = FileManager.default.temporaryDirectory.appendingPathComponent(
                "scenario-testing-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(
                at: project.appendingPathComponent("Scenarios"),
                withIntermediateDirectories: true
            )
            try FileManager.default.copyItem(
                at: Self.repositoryRoot.appendingPathComponent("Fixtures"),
                to: project.appendingPathComponent("Fixtures")
            )
            defer { try? FileManager.default.removeItem(at: project) }
            try """
            scenarios:
              - scenario: Runs
                steps: [succeed]
              - scenario: Waits for the server team
                skip: the endpoint is not deployed
                steps: [succeed]
            """.write(to: project.appendingPathComponent("Scenarios/s.yml"), atomically: true, encoding: .utf8)
            let names = ScenarioTesting.scenarios(app: RestaurantReviews.appUnderTest, directory: project)
                .map(\.testDescription)
            #expect(names == ["s: Runs", "s: Waits for the server team (skipped: the endpoint is not deployed)"])
            let summary = try await ScenarioTesting.run(
                app: RestaurantReviews.appUnderTest,
                directory: project,
                environment: [:]
            )
            #expect(summary == RunSummary(passed: 1, skipped: 1, duration: summary.duration))
        }

        @Test func aProjectWithoutScenariosDoesNotPass() async throws {
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
                "scenario-testing-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(
                at: empty.appendingPathComponent("Scenarios"),
                withIntermediateDirectories: true
            )
            defer { try? FileManager.default.removeItem(at: empty) }
            try await withKnownIssue {
                _ = try await ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: empty,
                    environment: [:]
                )
            } matching: { issue in
                issue.comments.contains { $0.rawValue.hasPrefix("No scenario found under ") }
            }
            let cases = ScenarioTesting.scenarios(app: RestaurantReviews.appUnderTest, directory: empty)
            #expect(cases.map(\.testDescription) == ["No scenarios"])
        }

        @Test func skipTearDownKeepsTheLastStoreAndSaysWhere() async throws {
            let project = FileManager.default.temporaryDirectory.appendingPathComponent(
                "scenario-testing-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(
                at: project.appendingPathComponent("Scenarios"),
                withIntermediateDirectories: true
            )
            try FileManager.default.copyItem(
                at: Self.repositoryRoot.appendingPathComponent("Fixtures"),
                to: project.appendingPathComponent("Fixtures")
            )
            defer { try? FileManager.default.removeItem(at: project) }
            try """
            scenarios:
              - scenario: Leaves a restaurant behind
                steps:
                  - insert entity: { entity: Restaurant, attributes: { restaurantID: 7, name: Kept } }
            """.write(to: project.appendingPathComponent("Scenarios/keep.yml"), atomically: true, encoding: .utf8)
            let kept = project.appendingPathComponent(".scenario-run/last-store.sqlite")
            let summary = try await ScenarioTesting.run(
                app: RestaurantReviews.appUnderTest,
                directory: project,
                environment: ["KIF_SKIP_TEAR_DOWN": "1"]
            )
            #expect(summary.passed == 1)
            #expect(FileManager.default.fileExists(atPath: kept.path))
            let store = try EntityStore(model: RestaurantReviews.model, location: .file(kept))
            #expect(try store.countSaved("Restaurant", where: ["name": "Kept"]) == 1)
            // Leave no shared instance behind for the next test of the serialized suite.
            try await RestaurantReviews.makeTestFactory().tearDown()
        }

        @Test func failingExampleIsReportedAtTheScenarioFilesLine() async throws {
            try await withKnownIssue {
                _ = try await ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: Self.repositoryRoot,
                    paths: ["Scenarios/examples-failing"],
                    environment: [:]
                )
            } matching: { issue in
                // The leaking example's `check for leaks` is written nowhere: it is reported at its scenario.
                (issue.sourceLocation?.fileName == "failing.yml" && [10, 14].contains(issue.sourceLocation?.line ?? 0))
                    || (issue.sourceLocation?.fileName == "leaking.yml" && issue.sourceLocation?.line == 7)
            }
        }
    }
}
