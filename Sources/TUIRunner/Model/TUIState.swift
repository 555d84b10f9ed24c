import Diagnostics
import Scenarios

/// Everything the runner shows, reduced from run events and keys; keys return the action the loop performs.
///
/// ```swift
/// var state = TUIState()
/// state.apply(.runStarted(plan))
/// if let action = state.handle(.character("r")) { perform(action) }
/// ```
package struct TUIState: Sendable {
    enum Pane: Sendable, Hashable {
        case tree
        case steps
    }

    enum FilterMode: Sendable, Hashable {
        case all
        case failed
    }

    enum RunState: Sendable, Hashable {
        case idle
        case running
        case cancelling
        case finished
        case cancelled
    }

    /// One line of the scenario tree.
    enum Row: Sendable, Hashable {
        case feature(String)
        case scenario(ScenarioID)
    }

    struct StepState: Sendable, Hashable {
        var planned: RunPlan.PlannedStep
        var status: ScenarioStatus = .pending
        var duration: Duration?
        var waited: Duration?
        var waitReason: String?
        var failure: String?
        var failureLocation: SourceLocation?
        /// What a warned step reported (`check for leaks` under `leaks: warn`).
        var warning: String?
    }

    struct ScenarioState: Sendable, Hashable {
        var planned: RunPlan.PlannedScenario
        var status: ScenarioStatus = .pending
        var duration: Duration?
        var steps: [StepState]
        var logs: [String] = []
        var failedStep: Int?

        init(_ planned: RunPlan.PlannedScenario) {
            self.planned = planned
            self.steps = planned.steps.map { StepState(planned: $0) }
        }

        /// The index of `check for leaks` when it found leaks (failed or warned).
        var leakStep: Int? {
            guard let index = steps.indices.last, steps[index].planned.phase == .leakCheck,
                steps[index].status == .failed || steps[index].status == .warned
            else { return nil }
            return index
        }

        /// Each leak `check for leaks` found, in its order; empty when it found none.
        var leaks: [String] {
            guard let index = leakStep, let reason = steps[index].failure ?? steps[index].warning else { return [] }
            return reason.components(separatedBy: "; ")
        }
    }

    /// Per-feature totals shown next to a feature (`3/5, 1 failed`).
    struct Counts: Sendable, Hashable {
        var done = 0
        var total = 0
        var failed = 0
    }

    // MARK: Run

    // The state's setters are internal so that `apply` (TUIState+Events.swift) and `handle`
    // (TUIState+Keys.swift) can change it; nothing else does: the layout and the renderer only read.

    var order: [ScenarioID] = []
    var scenarios: [ScenarioID: ScenarioState] = [:]
    /// Scenarios that passed after a failed try (`--retries`), with how many of their tries failed:
    /// kept for the session, so the badge survives a re-run that passes at once.
    var flaky: [ScenarioID: (failed: Int, tries: Int)] = [:]
    /// This run's tries of each scenario, and how many of them failed.
    var tries: [ScenarioID: (started: Int, failed: Int)] = [:]
    /// Feature files in plan order, and the feature name of each.
    var files: [String] = []
    var featureNames: [String: String] = [:]
    var runState: RunState = .idle
    var running: ScenarioID?
    /// How many runs this session started (re-runs included).
    var runCount = 0
    var inspections: [ScenarioID: InspectorSnapshot] = [:]
    /// Totals over every scenario of the tree, kept up to date as statuses change (frames stay cheap
    /// on runs of thousands of scenarios).
    var counts = Counts()
    /// Totals of each feature file.
    var countsByFile: [String: Counts] = [:]
    /// The clock of the loop: set before applying events so elapsed time can be shown.
    package var now: Duration = .zero
    var runStartedAt: Duration?
    var lastElapsed: Duration = .zero

    // MARK: View

    /// The lines of the tree as shown: features with a matching scenario, and their scenarios unless
    /// collapsed. Kept up to date by every change that affects it (not recomputed per event).
    private(set) var rows: [Row] = []
    private(set) var rowIndex: [Row: Int] = [:]
    var selection: Row?
    var stepSelection: Int?
    var followsRunning = true
    var focus: Pane = .tree
    var collapsed: Set<String> = [] {
        didSet { refreshRows() }
    }
    var filterMode: FilterMode = .all {
        didSet { refreshRows() }
    }
    var filterText = "" {
        didSet { refreshRows() }
    }
    var isEditingFilter = false
    var showsHelp = false
    var showsInspector = false
    var inspectorEntity = 0
    /// A one-line note for the footer (cleared by the next key).
    var message: String?
    /// The diagnostics of files `--watch` could not load, shown until they load again.
    var loadError: String?
    /// Whether the inspector can be opened (`KIF_SKIP_TEAR_DOWN`).
    var inspectorAvailable: Bool
    /// How the run was ordered or cut (`seed 42  shard 2/3`), shown in the status line.
    var statusNote: String?

    package init(inspectorAvailable: Bool = false, statusNote: String? = nil) {
        self.inspectorAvailable = inspectorAvailable
        self.statusNote = statusNote
    }

    // MARK: Derived

    /// Whether a run is in progress (also while it is being cancelled).
    var isRunning: Bool { runState == .running || runState == .cancelling }

    /// The time since the run in progress started, or how long the last run took.
    var elapsed: Duration {
        if let runStartedAt, isRunning { return now - runStartedAt }
        return lastElapsed
    }

    /// Totals of one feature file.
    func counts(ofFile file: String) -> Counts { countsByFile[file] ?? Counts() }

    /// The scenarios that failed, in plan order.
    var failedIDs: [ScenarioID] { order.filter { scenarios[$0]?.status == .failed } }

    /// Whether a scenario passes the All/Failed toggle and the text filter.
    func matchesFilter(_ id: ScenarioID) -> Bool {
        matchesFilter(id, needle: filterText.lowercased())
    }

    /// ``matchesFilter(_:)`` with the filter text lowercased once for all the scenarios.
    private func matchesFilter(_ id: ScenarioID, needle: String) -> Bool {
        if filterMode == .failed, scenarios[id]?.status != .failed { return false }
        guard !needle.isEmpty else { return true }
        return id.name.lowercased().contains(needle) || (featureNames[id.file] ?? id.file).lowercased().contains(needle)
    }

    /// The position of a row in ``rows``.
    func index(of row: Row) -> Int? { rowIndex[row] }

    mutating func refreshRows() {
        var rows: [Row] = []
        var byFile: [String: [ScenarioID]] = [:]
        let needle = filterText.lowercased()
        for id in order where matchesFilter(id, needle: needle) { byFile[id.file, default: []].append(id) }
        for file in files {
            guard let ids = byFile[file] else { continue }
            rows.append(.feature(file))
            if !collapsed.contains(file) { rows += ids.map(Row.scenario) }
        }
        self.rows = rows
        rowIndex = Dictionary(rows.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The selected scenario, if a scenario row is selected.
    var selectedScenario: ScenarioID? {
        if case .scenario(let id)? = selection { return id }
        return nil
    }

    /// The scenario whose steps are shown: the selected one, else the running one.
    var shownScenario: ScenarioID? { selectedScenario ?? running }

    /// The step whose failure the detail pane shows: the selected step when it failed, else the first failure.
    var detailStep: Int? {
        guard let id = shownScenario, let scenario = scenarios[id] else { return nil }
        if let stepSelection, scenario.steps.indices.contains(stepSelection),
            scenario.steps[stepSelection].status == .failed
        {
            return stepSelection
        }
        return scenario.failedStep ?? scenario.steps.firstIndex { $0.status == .failed }
    }

    /// The inspector snapshot of the shown scenario.
    var shownInspection: InspectorSnapshot? { shownScenario.flatMap { inspections[$0] } }

    // MARK: Selection

    /// Keeps the selection on a visible row: the running scenario when followed, else the first row.
    mutating func normalizeSelection() {
        if let selection, rowIndex[selection] != nil { return }
        if case .scenario(let id)? = selection, rowIndex[.feature(id.file)] != nil {
            selection = .feature(id.file)
            return
        }
        if let running, rowIndex[.scenario(running)] != nil {
            selection = .scenario(running)
        } else {
            selection = rows.first { if case .scenario = $0 { true } else { false } } ?? rows.first
        }
        stepSelection = nil
    }
}
