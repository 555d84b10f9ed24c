package import Diagnostics
package import Foundation
import YAMLSource

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
/// leaks: fail
/// unmatched requests: warn
/// settle time: 0.5
/// ```
package struct RunSettings: Sendable, Equatable, Codable {
    /// What `check for leaks` does with what a scenario left behind after its tear-down (`leaks:`).
    package enum LeakMode: String, Sendable, Equatable, CaseIterable, Codable {
        /// The check fails the scenario, its reason listing every leak (the default).
        case fail
        /// The check passes and reports the leaks as a warning.
        case warn
        /// No check: the step is not in the plan.
        case off
    }

    /// What a request the stub server had no route for does to its scenario (`unmatched requests:`).
    package enum UnmatchedMode: String, Sendable, Equatable, CaseIterable, Codable {
        /// `check for leaks` fails the scenario, listing the requests and their nearest routes.
        case fail
        /// The scenario's log names each one and its nearest routes (the default).
        case warn
        /// Nothing is said (the 404 body still names the nearest routes).
        case off
    }

    /// What a request the app sent that breaks the OpenAPI document does (`contract:`).
    package enum ContractMode: String, Sendable, Equatable, CaseIterable, Codable {
        /// `check for leaks` fails the scenario, naming each request and what it breaks (the default).
        case fail
        /// The scenario's log names them; it still passes.
        case warn
        /// Requests are not checked.
        case off
    }

    /// How long a waiting step may keep retrying.
    package var stepTimeout: Duration = .seconds(10)
    /// How long a step's action still has to end once cancelled at its timeout; one that goes on is left
    /// behind (and its process ended, in a worker).
    package var cancellationGrace: Duration = .seconds(1)
    /// How long one scenario may take, set-up and tear-down included, before the process running it is
    /// ended (`--scenario-timeout`; runs in worker processes only).
    package var scenarioTimeout: Duration = .seconds(120)
    /// How many times each scenario runs in a row (`--repeat`); any failing repetition fails it.
    package var repetitions = 1
    /// How many more times a failing scenario is tried (`--retries`); one that then passes is flaky.
    package var retries = 0
    /// How often a waiting step is retried when nothing signals a change.
    package var retryInterval: Duration = .milliseconds(50)
    /// How long nothing may run or change before a failing expectation gives up ahead of its timeout
    /// (`settle time:`; `nil` for `off`, which always waits out the timeout). See ``Step/settles``.
    package var settleTime: Duration? = .milliseconds(500)
    /// Step names run before every scenario (KIF `setDefaultStepsToSetUp`).
    package var defaultSetUp: [String] = ["set up the test environment"]
    /// Step names run after every scenario, even a failed one.
    package var defaultTearDown: [String] = ["tear down the test environment"]
    /// The fixture folder.
    package var fixtures: String = "Fixtures"
    /// The folder searched for scenario files when no path is given.
    package var scenarios: String = "Scenarios"
    /// Folders skipped when searching for scenario files, unless a path names them directly.
    package var exclude: [String] = []
    /// Skip tear-down steps (reported skipped) to inspect what a scenario left (`KIF_SKIP_TEAR_DOWN`).
    package var skipTearDown = false
    /// Stop after the first failing scenario (`--fail-fast`, `KIF_EXIT_ON_FAILURE`).
    package var failFast = false
    /// Only scenarios whose name matches this regular expression (`--filter`, `KIF_SCENARIO_FILTER`).
    package var filter: String?
    /// Whether scenarios are checked for leaks after their tear-down, and what a leak does.
    package var leaks: LeakMode = .fail
    /// What a request no stub route answered does (`unmatched requests:`).
    package var unmatchedRequests: UnmatchedMode = .warn
    /// The API's OpenAPI document (`openapi:`, `--openapi`), which `check` holds `server.yml` to and a
    /// run holds the app's requests to.
    package var openapi: String?
    /// What a request that breaks the document does to its scenario (`contract:`).
    package var contract: ContractMode = .fail
    /// Where the run's HTML report is written (`html report:`, `--html`); `nil` for none.
    package var htmlReport: String?
    /// Whether each try of a scenario reports its request log (``RunEvent/requestLog(_:_:dropped:)``): set by
    /// the command line when a report shows it (`--html`, `--junit`), not read from `scenario-run.yml`. Only
    /// then does the stub server's journal keep answers; the bodies are logged only in a run with an HTML
    /// report (``LoggedRequest/bodyBytes`` of a try that failed, ``LoggedRequest/passedBodyBytes`` of one
    /// that passed).
    package var requestLog = false

    /// Where `default set up` and `default tear down` names were written, by index, when they came
    /// from `scenario-run.yml`: load errors about them point there.
    package var defaultSetUpSources: [Diagnostic.Source] = []
    package var defaultTearDownSources: [Diagnostic.Source] = []

    package init() {}

    /// Reads `scenario-run.yml`; every problem is a diagnostic, naming the file by `url.relativePath`.
    package static func load(contentsOf url: URL) throws(DiagnosticList) -> RunSettings {
        try checked(read(contentsOf: url))
    }

    /// Reads settings from YAML text; `file` names it in diagnostics.
    package static func load(yaml: String, file: String) throws(DiagnosticList) -> RunSettings {
        try checked(read(yaml: yaml, file: file))
    }

    /// Reads `scenario-run.yml` as far as it can: the settings it could read (the defaults for those it
    /// could not) and every problem, so that a caller can add what only it can check — the default steps'
    /// names — and report all of them at once. Throws only when the file cannot be read as YAML at all.
    package static func read(contentsOf url: URL) throws(DiagnosticList) -> (
        settings: RunSettings, problems: [Diagnostic]
    ) {
        try read(try YAMLText.read(contentsOf: url.path, file: url.relativePath), file: url.relativePath)
    }

    /// ``read(contentsOf:)`` of YAML text; `file` names it in diagnostics.
    package static func read(yaml: String, file: String) throws(DiagnosticList) -> (
        settings: RunSettings, problems: [Diagnostic]
    ) {
        try read(try YAMLText(checking: yaml, file: file), file: file)
    }

    /// The settings read, or their problems thrown.
    private static func checked(
        _ read: (settings: RunSettings, problems: [Diagnostic])
    ) throws(DiagnosticList) -> RunSettings {
        guard read.problems.isEmpty else { throw DiagnosticList(read.problems) }
        return read.settings
    }

    private static func read(_ source: YAMLText, file: String) throws(DiagnosticList) -> (
        settings: RunSettings, problems: [Diagnostic]
    ) {
        var settings = RunSettings()
        var reader = SettingReader(file: file, source: source.source)
        let root: YAMLNode?
        do {
            var composer = YAMLComposer()
            root = try composer.compose(source)
        } catch {
            throw DiagnosticList([error.diagnostic(file: file, source: source.source)])
        }
        guard let root else { return (settings, []) }
        guard case .mapping(let mapping) = root.content else {
            reader.report("Settings are a mapping, like 'step timeout: 10'.", root)
            return (settings, reader.problems)
        }
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? ""
            guard let key = keys.first(where: { $0.name == name }) else {
                reader.report(
                    "Unknown setting '\(name)'."
                        + Suggestions.didYouMeanOrKnown(name, in: keys.map(\.name), label: "Settings are"),
                    keyNode
                )
                continue
            }
            key.read(value, &settings, &reader)
        }
        return (settings, reader.problems)
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
