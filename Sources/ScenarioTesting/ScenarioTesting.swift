import Diagnostics
public import Foundation
public import Scenarios
public import Steps
import Synchronization
public import Testing

/// Runs a project's scenario files inside its own `swift test`: every scenario its own test case,
/// named by feature and scenario, each failing step an issue at the scenario file's line.
///
/// ```swift
/// import ScenarioTesting
/// import Testing
///
/// @Test(arguments: ScenarioTesting.scenarios(app: MyApp.appUnderTest, directory: projectRoot))
/// func scenario(_ scenario: ScenarioCase) async throws {
///     try await ScenarioTesting.run(scenario)
/// }
/// ```
public enum ScenarioTesting {
    /// Loads the scenarios under `directory` (its `scenario-run.yml`, `Scenarios/`, `Fixtures/`) — or those
    /// `paths` name, relative to `directory`, as the command line reads them: a file or folder, or
    /// `PATH:LINE` for the scenario (or example row) at that line, what a failure's `FILE:LINE` names —,
    /// runs them against a stub server, records an issue per failing scenario at the failing step's
    /// file and line (a step written nowhere, like `check for leaks`, at its scenario's), prints the
    /// leaks `leaks: warn` reports, and returns the summary. Load errors are recorded at their `FILE:LINE:COL`;
    /// finding no scenario is an issue too (a run that tests nothing is not a pass). A `PATH:LINE` inside no
    /// scenario throws, naming the lines the file's scenarios start at, as the command line's usage error.
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
        guard let project = load(app: app, directory: directory, paths: paths, environment: environment) else {
            return RunSummary()
        }
        // Each of `tags` is a tag or a tag expression (`smoke and not slow`); a scenario needs any of them.
        // A malformed expression, or a tag no scenario has, throws saying so (with the nearest tag).
        let expressions = try tags.sorted().map { try TagExpression(parsing: $0) }
        let selection = try ScenarioSelection(
            filter: project.suite.settings.filter,
            tags: expressions,
            lines: project.suite.lineSelection(Self.lines(paths, in: directory), of: project.scenarios)
        )
        try selection.checkTags(in: project.scenarios)
        let selected = selection.select(project.scenarios)
        if selected.isEmpty {
            Issue.record(
                Comment(
                    rawValue: "No scenario found under '\(directory.path)'"
                        + (paths.isEmpty ? "" : " in \(paths.joined(separator: ", "))")
                        + (tags.isEmpty ? "" : " with tags \(tags.sorted().joined(separator: ", "))")
                        + ": a run that tests nothing does not pass."
                )
            )
            return RunSummary()
        }
        return try await execute(selected, in: project, directory: directory)
    }

    /// Every scenario under `directory` (or of `paths`, `PATH:LINE` included, as ``run(app:directory:paths:tags:environment:)``
    /// reads them) as a test case, for `@Test(arguments:)`: each runs alone with ``run(_:)`` and shows in
    /// `swift test` as `Feature: scenario`. Load errors, or a `PATH:LINE` inside no scenario, become one
    /// case that records them; no scenario at all, one case that says so.
    public static func scenarios(
        app: AppUnderTest,
        directory: URL,
        paths: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [ScenarioCase] {
        let loaded = load(
            app: app,
            directory: directory,
            paths: paths,
            environment: environment,
            recording: false,
            choosingLines: true
        )
        let project = ScenarioProject(
            app: app,
            directory: directory,
            paths: paths,
            environment: environment,
            loaded: loaded
        )
        guard let loaded else {
            return [ScenarioCase(project: project, scenario: nil, label: "Loading the scenarios")]
        }
        guard !loaded.scenarios.isEmpty else {
            return [ScenarioCase(project: project, scenario: nil, label: "No scenarios")]
        }
        // A skipped scenario says so in its name: Swift Testing 6.3's console shows a cancelled test case
        // as passed, and `run(_:)` cancels it.
        return loaded.scenarios.map {
            ScenarioCase(
                project: project,
                scenario: $0.id,
                label: "\($0.feature): \($0.name)" + ($0.skip.map { " (skipped: \($0))" } ?? "")
            )
        }
    }

    /// Runs one scenario of ``scenarios(app:directory:paths:environment:)``, recording its failures.
    @discardableResult
    public static func run(_ scenario: ScenarioCase) async throws -> RunSummary {
        let project = scenario.project
        // Loaded once for all the cases; a project that did not load is loaded again to record why.
        guard
            let loaded = project.loaded
                ?? load(
                    app: project.app,
                    directory: project.directory,
                    paths: project.paths,
                    environment: project.environment,
                    choosingLines: true
                )
        else { return RunSummary() }
        guard let id = scenario.scenario, let selected = loaded.scenarios.first(where: { $0.id == id }) else {
            Issue.record(
                Comment(
                    rawValue:
                        "No scenario found under '\(project.directory.path)': a run that tests nothing does not pass."
                )
            )
            return RunSummary()
        }
        // A scenario with `skip:` is a cancelled test case, with its reason (and its case's name says
        // skipped), never a pass.
        if let reason = selected.skip {
            try Test.cancel(Comment(rawValue: "Skipped: \(reason)"))
        }
        return try await execute([selected], in: loaded, directory: project.directory)
    }

    /// `paths` (files, folders, `PATH:LINE`) relative to `directory`, read as the command line reads them.
    static func lines(_ paths: [String], in directory: URL) -> ScenarioLines {
        ScenarioLines(arguments: paths.map { directory.appendingPathComponent($0).path })
    }

    /// The settings, suite and scenarios of a project (with `choosingLines`, only those `PATH:LINE`
    /// arguments chose); `nil` after recording why they cannot be loaded or chosen.
    static func load(
        app: AppUnderTest,
        directory: URL,
        paths: [String],
        environment: [String: String],
        recording: Bool = true,
        choosingLines: Bool = false
    ) -> (suite: ScenarioSuite, scenarios: [Scenario])? {
        var settings = RunSettings()
        let settingsFile = directory.appendingPathComponent("scenario-run.yml")
        do {
            if FileManager.default.fileExists(atPath: settingsFile.path) {
                settings = try ScenarioSuite.loadSettings(contentsOf: settingsFile, app: app, directory: directory)
            }
            settings = settings.applying(environment: environment)
            settings.scenarios = directory.appendingPathComponent(settings.scenarios).path
            settings.exclude = settings.exclude.map { directory.appendingPathComponent($0).path }
            let suite = try ScenarioSuite(app: app, settings: settings, directory: directory)
            let lines = Self.lines(paths, in: directory)
            let scenarios = try suite.loadScenarios(paths: lines.paths)
            guard choosingLines else { return (suite, scenarios) }
            do {
                let chosen = try suite.lineSelection(lines, of: scenarios)
                return (suite, chosen.map { chosen in scenarios.filter(chosen.contains) } ?? scenarios)
            } catch {
                if recording { Issue.record(Comment(rawValue: "\(error)")) }
                return nil
            }
        } catch {
            if recording { record(error) }
            return nil
        }
    }

    static func execute(
        _ selected: [Scenario],
        in project: (suite: ScenarioSuite, scenarios: [Scenario]),
        directory: URL
    )
        async throws -> RunSummary
    {
        let suite = project.suite
        let failures = FailureLog()
        // One run at a time in the process: every run shares the app's object manager and store, and two
        // suites' runs at once (Swift Testing runs suites in parallel) failed valid scenarios of both.
        await RunGate.shared.enter()
        let summary: RunSummary
        do {
            summary = try await suite.run(selected) { failures.handle($0) }
            await RunGate.shared.leave()
        } catch {
            await RunGate.shared.leave()
            throw error
        }
        if suite.settings.skipTearDown {
            do {
                if let lines = try KeptStore.keep(in: directory) { print(lines.joined(separator: "\n")) }
            } catch {
                Issue.record(
                    Comment(rawValue: "KIF_SKIP_TEAR_DOWN: could not keep the last scenario's store: \(error)")
                )
            }
        }
        for warning in failures.warnings { print("warning: \(warning)") }
        for skipped in failures.skipped { print("note: skipped '\(skipped.name)': \(skipped.reason)") }
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

    private let state = Mutex<
        (plan: RunPlan?, failures: [Failure], warnings: [String], skipped: [(name: String, reason: String)])
    >((nil, [], [], []))

    func handle(_ event: RunEvent) {
        state.withLock { state in
            switch event {
            case .runStarted(let plan):
                state.plan = plan
            case .scenarioFinished(let id, .skipped, _):
                if let reason = state.plan?.scenario(id)?.skip { state.skipped.append((id.name, reason)) }
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
    /// The scenarios skipped by their `skip:`, with its reason.
    var skipped: [(name: String, reason: String)] { state.withLock { $0.skipped } }
}

extension RandomAccessCollection where Index == Int {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// Where a project's scenarios are, for ``ScenarioCase``s.
struct ScenarioProject: Sendable {
    var app: AppUnderTest
    var directory: URL
    var paths: [String]
    var environment: [String: String]
    /// The suite and scenarios as ``ScenarioTesting/scenarios(app:directory:paths:environment:)`` loaded
    /// them, shared by every case (`nil` when they did not load).
    var loaded: (suite: ScenarioSuite, scenarios: [Scenario])?
}

/// One scenario of a project as a `swift test` case (`Feature: scenario`), run by ``ScenarioTesting/run(_:)``.
public struct ScenarioCase: Sendable, CustomTestStringConvertible, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    let project: ScenarioProject
    /// `nil` for the case that stands for load errors or an empty project.
    let scenario: ScenarioID?
    let label: String

    /// `Feature: scenario`, as the test runner names the case.
    public var testDescription: String { label }
    /// `Feature: scenario`: never the project it was loaded with (its environment may hold secrets).
    public var description: String { label }
    /// `Feature: scenario`, also in a failure's dump of the test's arguments.
    public var debugDescription: String { label }
    /// Only the label, so that `dump` shows no environment either.
    public var customMirror: Mirror { Mirror(self, children: ["label": label]) }
}

/// Lets one scenario run at a time into the process, first come first served: the runs of every suite
/// that uses ``ScenarioTesting`` share the app's object manager, its store and its stub server.
actor RunGate {
    static let shared = RunGate()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns when the caller may run; waits while another run is under way.
    func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Lets the next waiting run in (it stays busy), or frees the gate.
    func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
