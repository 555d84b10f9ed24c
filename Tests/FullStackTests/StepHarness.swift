import Diagnostics
import ExampleApp
import Foundation
import Scenarios
import Steps
import Synchronization

/// Runs scenarios written inline (YAML or Swift steps) against the example app and a live stub server
/// serving the repository's fixtures, and collects what happened.
struct StepHarness {
    struct Outcome {
        var summary: RunSummary
        var events: [RunEvent]

        /// The reason of every failed step, in order.
        var failures: [String] {
            events.compactMap { event in
                if case .stepFinished(_, _, _, .failed(let reason, _), _) = event { return reason }
                return nil
            }
        }

        var logs: [String] {
            events.compactMap { event in
                if case .log(_, let line) = event { return line }
                return nil
            }
        }
    }

    let suite: ScenarioSuite

    /// `configure` changes the settings (a tear-down that forgets something, `leaks: warn`).
    init(app: AppUnderTest = RestaurantReviews.appUnderTest, configure: (inout RunSettings) -> Void = { _ in }) throws {
        var settings = RunSettings()
        settings.fixtures = repositoryFixtures.path
        settings.stepTimeout = .seconds(5)
        configure(&settings)
        suite = try ScenarioSuite(
            app: app,
            settings: settings,
            directory: repositoryFixtures.deletingLastPathComponent()
        )
    }

    /// Loads a scenario file's text; throws its diagnostics.
    func load(_ yaml: String) throws(DiagnosticList) -> [Scenario] {
        try ScenarioLoader(registry: suite.registry, buildContext: suite.buildContext).load(
            yaml: yaml,
            file: "inline.yml"
        )
    }

    /// One scenario whose steps are the given YAML list items.
    func run(steps: String, setUp: String = "") async throws -> Outcome {
        let indented = steps.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n")
        let yaml =
            (setUp.isEmpty
                ? "" : "set up:\n" + setUp.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            + "scenarios:\n  - scenario: inline\n    steps:\n" + indented + "\n"
        return try await run(try load(yaml))
    }

    /// One scenario of Swift steps (the factories a package uses for what YAML cannot express).
    func run(_ name: String, steps: [Step]) async throws -> Outcome {
        let location = SourceLocation(file: "inline.swift", line: 1, column: 1)
        return try await run([
            Scenario(
                name: name,
                tags: [],
                location: location,
                feature: "Steps",
                file: "inline.swift",
                setUp: [],
                steps: steps
            )
        ])
    }

    func run(_ scenarios: [Scenario]) async throws -> Outcome {
        let events = Mutex<[RunEvent]>([])
        let summary = try await suite.run(scenarios) { event in events.withLock { $0.append(event) } }
        return Outcome(summary: summary, events: events.withLock { $0 })
    }
}
