import Foundation
import LibraryLoans
import ScenarioTesting
import Scenarios
import Testing

/// The package's scenario files, run inside `swift test` exactly as `swift run library-loans` runs them.
@Suite(.serialized)
struct ScenarioTests {
    /// The package root: `Tests/LibraryLoansTests/ScenarioTests.swift` is three folders down.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// How many scenarios the default run has (every scenario outside `Scenarios/examples-failing`).
    static func defaultScenarioCount() throws -> Int {
        let folder = root.appendingPathComponent("Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yml") }
        return try files.reduce(0) { total, file in
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            return total
                + text.split(separator: "\n").count { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- scenario:") }
        }
    }

    /// Each scenario its own test case, named by feature and scenario (`Offline: The loan list loads again…`).
    @Test(arguments: ScenarioTesting.scenarios(app: LibraryLoans.appUnderTest, directory: root))
    func scenario(_ scenario: ScenarioCase) async throws {
        try await ScenarioTesting.run(scenario)
    }

    @Test func everyDefaultScenarioPasses() async throws {
        let summary = try await ScenarioTesting.run(app: LibraryLoans.appUnderTest, directory: Self.root)
        let expected = try Self.defaultScenarioCount()
        #expect(expected >= 10)
        #expect(summary.passed == expected)
        #expect(summary.failed == 0)
    }

    @Test func theDeliberatelyFailingScenariosFail() async throws {
        var summary: RunSummary?
        await withKnownIssue("Scenarios/examples-failing fails on purpose: a wrong expected status and a 'fail' step") {
            summary = try await ScenarioTesting.run(
                app: LibraryLoans.appUnderTest,
                directory: Self.root,
                paths: ["Scenarios/examples-failing"]
            )
        }
        #expect(summary?.passed == 0)
        #expect(summary?.failed == 2)
    }
}
