import ExampleApp
import Foundation
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

        @Test func failingExampleIsReportedAtTheScenarioFilesLine() async throws {
            try await withKnownIssue {
                _ = try await ScenarioTesting.run(
                    app: RestaurantReviews.appUnderTest,
                    directory: Self.repositoryRoot,
                    paths: ["Scenarios/examples-failing"],
                    environment: [:]
                )
            } matching: { issue in
                issue.sourceLocation?.fileName == "failing.yml" && [10, 14].contains(issue.sourceLocation?.line ?? 0)
            }
        }
    }
}
