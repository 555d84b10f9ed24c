import Diagnostics
public import Foundation
public import Scenarios
public import Steps
import Synchronization
import Testing

/// Runs a project's scenario files inside its own `swift test`, one call in one test; every failing
/// step is reported as a test issue at the scenario file's line.
///
/// ```swift
/// import ScenarioTesting
/// import Testing
///
/// @Test func scenarios() async throws {
///     try await ScenarioTesting.run(app: MyApp.appUnderTest, directory: projectRoot)
/// }
/// ```
public enum ScenarioTesting {
    /// Loads the scenarios under `directory` (its `scenario-run.yml`, `Scenarios/`, `Fixtures/`), runs
    /// them against a stub server, records an issue per failing scenario at the failing step's
    /// file and line (a step written nowhere, like `check for leaks`, at its scenario's), prints the
    /// leaks `leaks: warn` reports, and returns the summary. Load errors are recorded at their `FILE:LINE:COL`.
    /// With `KIF_SKIP_TEAR_DOWN` set, tear-down is skipped and the last scenario's store is kept at
    /// `directory/.scenario-run/last-store.sqlite` (the path is printed).
    @discardableResult
    public static func run(
        app: AppUnderTest,
        directory: URL,
        paths: [String] = [],
        tags: Set<String> = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> RunSummary {
        var settings = RunSettings()
        let settingsFile = directory.appendingPathComponent("scenario-run.yml")
        do {
            if FileManager.default.fileExists(atPath: settingsFile.path) {
                settings = try RunSettings.load(contentsOf: settingsFile)
            }
        } catch {
            record(error)
            return RunSummary()
        }
        settings = settings.applying(environment: environment)
        settings.scenarios = directory.appendingPathComponent(settings.scenarios).path
        settings.exclude = settings.exclude.map { directory.appendingPathComponent($0).path }
        let suite: ScenarioSuite
        let scenarios: [Scenario]
        do {
            suite = try ScenarioSuite(app: app, settings: settings, directory: directory)
            scenarios = try suite.loadScenarios(paths: paths.map { directory.appendingPathComponent($0).path })
        } catch {
            record(error)
            return RunSummary()
        }
        // Each of `tags` is a tag or a tag expression (`smoke and not slow`); a scenario needs any of them.
        let expressions = tags.sorted().map { (try? TagExpression(parsing: $0)) ?? .tag(TagExpression.bare($0)) }
        let selected = try ScenarioSelection(filter: settings.filter, tags: expressions).select(scenarios)
        let failures = FailureLog()
        let summary = try await suite.run(selected) { failures.handle($0) }
        if settings.skipTearDown {
            do {
                if let lines = try KeptStore.keep(in: directory) { print(lines.joined(separator: "\n")) }
            } catch {
                Issue.record(
                    Comment(rawValue: "KIF_SKIP_TEAR_DOWN: could not keep the last scenario's store: \(error)")
                )
            }
        }
        for warning in failures.warnings { print("warning: \(warning)") }
        for failure in failures.all {
            Issue.record(
                Comment(rawValue: "Scenario '\(failure.scenario)' failed at step '\(failure.step)': \(failure.reason)"),
                sourceLocation: sourceLocation(failure.location)
            )
        }
        return summary
    }

    static func record(_ diagnostics: DiagnosticList) {
        for diagnostic in diagnostics.diagnostics {
            Issue.record(Comment(rawValue: diagnostic.description), sourceLocation: sourceLocation(diagnostic.location))
        }
    }

    static func sourceLocation(_ location: Diagnostics.SourceLocation?) -> Testing.SourceLocation {
        let file = location?.file ?? "Scenarios/unknown.yml"
        let name = (file as NSString).lastPathComponent
        return Testing.SourceLocation(
            fileID: "Scenarios/\(name)",
            filePath: file,
            line: max(1, location?.line ?? 1),
            column: max(1, location?.column ?? 1)
        )
    }
}

/// The failing steps of a run, collected from its events.
final class FailureLog: Sendable {
    struct Failure: Sendable {
        var scenario: String
        var step: String
        var reason: String
        var location: Diagnostics.SourceLocation?
    }

    private let state = Mutex<(plan: RunPlan?, failures: [Failure], warnings: [String])>((nil, [], []))

    func handle(_ event: RunEvent) {
        state.withLock { state in
            switch event {
            case .runStarted(let plan):
                state.plan = plan
            case .stepFinished(let id, let index, _, let outcome, _):
                let scenario = state.plan?.scenario(id)
                let step = scenario?.steps[safe: index]
                let description = step?.description ?? "step \(index + 1)"
                switch outcome {
                case .failed(let reason, let location):
                    state.failures.append(
                        Failure(
                            scenario: id.name,
                            step: description,
                            reason: reason,
                            location: location ?? step?.location ?? scenario?.location
                        )
                    )
                case .warned(let reason):
                    state.warnings.append("Scenario '\(id.name)', step '\(description)': \(reason)")
                case .passed, .skipped:
                    break
                }
            default:
                break
            }
        }
    }

    var all: [Failure] { state.withLock { $0.failures } }
    /// What warned steps reported (`leaks: warn`), one line each.
    var warnings: [String] { state.withLock { $0.warnings } }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
