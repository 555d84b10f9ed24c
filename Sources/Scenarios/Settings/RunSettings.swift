package import Diagnostics
package import Foundation
import Yams

/// How a run behaves: timeouts, default set-up and tear-down steps, folders, and the KIF switches.
///
/// Read from `scenario-run.yml` (all keys optional), then the environment, then command-line options:
///
/// ```yaml
/// step timeout: 10
/// default set up: [set up the test environment]
/// default tear down: [tear down the test environment]
/// fixtures: Fixtures
/// scenarios: Scenarios
/// ```
package struct RunSettings: Sendable, Equatable {
    /// How long a waiting step may keep retrying.
    package var stepTimeout: Duration = .seconds(10)
    /// How long a step's action still has to end once cancelled at its timeout; one that goes on is left
    /// behind (and its process ended, in a worker).
    package var cancellationGrace: Duration = .seconds(1)
    /// How long one scenario may take, set-up and tear-down included, before the process running it is
    /// ended (`--scenario-timeout`; runs in worker processes only).
    package var scenarioTimeout: Duration = .seconds(120)
    /// How often a waiting step is retried when nothing signals a change.
    package var retryInterval: Duration = .milliseconds(50)
    /// Step names run before every scenario (KIF `setDefaultStepsToSetUp`).
    package var defaultSetUp: [String] = ["set up the test environment"]
    /// Step names run after every scenario, even a failed one.
    package var defaultTearDown: [String] = ["tear down the test environment"]
    /// The fixture folder.
    package var fixtures: String = "Fixtures"
    /// The folder searched for scenario files when no path is given.
    package var scenarios: String = "Scenarios"
    /// Folders skipped when searching for scenario files, unless a path names them directly.
    package var exclude: [String] = ["Scenarios/examples-failing", "Scenarios/examples-broken"]
    /// Skip tear-down steps (reported skipped) to inspect what a scenario left (`KIF_SKIP_TEAR_DOWN`).
    package var skipTearDown = false
    /// Stop after the first failing scenario (`--fail-fast`, `KIF_EXIT_ON_FAILURE`).
    package var failFast = false
    /// Only scenarios whose name matches this regular expression (`--filter`, `KIF_SCENARIO_FILTER`).
    package var filter: String?

    /// Where `default set up` and `default tear down` names were written, by index, when they came
    /// from `scenario-run.yml`: load errors about them point there.
    package var defaultSetUpSources: [Diagnostic.Source] = []
    package var defaultTearDownSources: [Diagnostic.Source] = []

    package init() {}

    static let keys = [
        "step timeout", "retry interval", "default set up", "default tear down", "fixtures", "scenarios", "exclude",
        "fail fast",
    ]

    /// Reads `scenario-run.yml`; every problem is a diagnostic, naming the file by `url.relativePath`.
    package static func load(contentsOf url: URL) throws(DiagnosticList) -> RunSettings {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8)
        else {
            throw DiagnosticList([
                Diagnostic(
                    location: SourceLocation(file: url.relativePath, line: 1, column: 1),
                    message: "Cannot read the settings file.",
                    sourceLine: nil
                )
            ])
        }
        return try load(yaml: text, file: url.relativePath)
    }

    /// Reads settings from YAML text; `file` names it in diagnostics.
    package static func load(yaml: String, file: String) throws(DiagnosticList) -> RunSettings {
        var settings = RunSettings()
        var diagnostics: [Diagnostic] = []
        func report(_ message: String, _ mark: Mark?) {
            let location = SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
            diagnostics.append(Diagnostic(message, at: location, in: yaml))
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            switch error as? YamlError {
            case .scanner(_, let problem, let mark, _)?, .parser(_, let problem, let mark, _)?,
                .composer(_, let problem, let mark, _)?:
                report("Invalid YAML: \(problem).", mark)
            case .duplicatedKeysInMapping(let duplicates, let context)?:
                report("Duplicate key '\(duplicates.joined(separator: "', '"))'.", context.mark)
            default:
                report("Invalid YAML: \(error).", nil)
            }
            throw DiagnosticList(diagnostics)
        }
        guard let root else { return settings }
        guard case .mapping(let mapping) = root else {
            report("Settings are a mapping, like 'step timeout: 10'.", root.mark)
            throw DiagnosticList(diagnostics)
        }
        func seconds(_ key: String, _ node: Node) -> Duration? {
            guard let value = node.string.flatMap(Double.init), value > 0, let duration = Duration(checkedSeconds: value)
            else {
                report("'\(key)' must be a positive number of seconds, at most 86400 (a day).", node.mark)
                return nil
            }
            return duration
        }
        func names(_ key: String, _ node: Node) -> (names: [String], sources: [Diagnostic.Source])? {
            func source(_ node: Node) -> Diagnostic.Source {
                let location = SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
                return Diagnostic.Source(location: location, in: yaml)
            }
            switch node {
            case .scalar(let scalar) where scalar.string.isEmpty: return ([], [])
            case .scalar(let scalar): return ([scalar.string], [source(node)])
            case .sequence(let items):
                let names = items.compactMap { item -> String? in
                    guard case .scalar(let scalar) = item else { return nil }
                    return scalar.string
                }
                if names.count == items.count { return (names, items.map(source)) }
            default: break
            }
            report("'\(key)' must be a list of step names.", node.mark)
            return nil
        }
        func text(_ key: String, _ node: Node) -> String? {
            guard case .scalar(let scalar) = node, !scalar.string.isEmpty else {
                report("'\(key)' must be a folder path.", node.mark)
                return nil
            }
            return scalar.string
        }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "step timeout": seconds(key, value).map { settings.stepTimeout = $0 }
            case "retry interval": seconds(key, value).map { settings.retryInterval = $0 }
            case "default set up":
                names(key, value).map { (settings.defaultSetUp, settings.defaultSetUpSources) = $0 }
            case "default tear down":
                names(key, value).map { (settings.defaultTearDown, settings.defaultTearDownSources) = $0 }
            case "fixtures": text(key, value).map { settings.fixtures = $0 }
            case "scenarios": text(key, value).map { settings.scenarios = $0 }
            case "exclude":
                if case .sequence(let items) = value, items.allSatisfy({ $0.scalar != nil }) {
                    settings.exclude = items.compactMap(\.string)
                } else if let single = value.scalar?.string {
                    settings.exclude = [single]
                } else {
                    report("'exclude' must be a list of folders.", value.mark)
                }
            case "fail fast":
                switch value.string?.lowercased() {
                case "true"?, "yes"?: settings.failFast = true
                case "false"?, "no"?: settings.failFast = false
                default: report("'fail fast' must be true or false.", value.mark)
                }
            default:
                report("Unknown setting '\(key)'." + Suggestions.didYouMean(key, in: keys), keyNode.mark)
            }
        }
        guard diagnostics.isEmpty else { throw DiagnosticList(diagnostics) }
        return settings
    }

    /// The settings with `KIF_SKIP_TEAR_DOWN`, `KIF_EXIT_ON_FAILURE` and `KIF_SCENARIO_FILTER` applied
    /// (each counts when non-blank).
    package func applying(environment: [String: String]) -> RunSettings {
        func value(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty
            else { return nil }
            return value
        }
        var settings = self
        if value("KIF_SKIP_TEAR_DOWN") != nil { settings.skipTearDown = true }
        if value("KIF_EXIT_ON_FAILURE") != nil { settings.failFast = true }
        if let filter = value("KIF_SCENARIO_FILTER") { settings.filter = filter }
        return settings
    }
}
