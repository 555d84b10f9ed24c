import ExampleApp
import Foundation
import ObjectManager
import ScenarioTesting
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
