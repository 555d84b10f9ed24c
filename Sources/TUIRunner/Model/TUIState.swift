import Diagnostics
package import Scenarios

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

    private(set) var order: [ScenarioID] = []
    private(set) var scenarios: [ScenarioID: ScenarioState] = [:]
    /// Scenarios that passed after a failed try (`--retries`), with how many of their tries failed:
    /// kept for the session, so the badge survives a re-run that passes at once.
    private(set) var flaky: [ScenarioID: (failed: Int, tries: Int)] = [:]
    /// This run's tries of each scenario, and how many of them failed.
    private var tries: [ScenarioID: (started: Int, failed: Int)] = [:]
    /// Feature files in plan order, and the feature name of each.
    private(set) var files: [String] = []
    private(set) var featureNames: [String: String] = [:]
    private(set) var runState: RunState = .idle
    private(set) var running: ScenarioID?
    /// How many runs this session started (re-runs included).
    private(set) var runCount = 0
    private(set) var inspections: [ScenarioID: InspectorSnapshot] = [:]
    /// Totals over every scenario of the tree, kept up to date as statuses change (frames stay cheap
    /// on runs of thousands of scenarios).
    private(set) var counts = Counts()
    /// Totals of each feature file.
    private(set) var countsByFile: [String: Counts] = [:]
    /// The clock of the loop: set before applying events so elapsed time can be shown.
    package var now: Duration = .zero
    private var runStartedAt: Duration?
    private var lastElapsed: Duration = .zero

    // MARK: View

    /// The lines of the tree as shown: features with a matching scenario, and their scenarios unless
    /// collapsed. Kept up to date by every change that affects it (not recomputed per event).
    private(set) var rows: [Row] = []
    private var rowIndex: [Row: Int] = [:]
    private(set) var selection: Row?
    private(set) var stepSelection: Int?
    private(set) var followsRunning = true
    private(set) var focus: Pane = .tree
    private(set) var collapsed: Set<String> = [] {
        didSet { refreshRows() }
    }
    private(set) var filterMode: FilterMode = .all {
        didSet { refreshRows() }
    }
    private(set) var filterText = "" {
        didSet { refreshRows() }
    }
    private(set) var isEditingFilter = false
    private(set) var showsHelp = false
    private(set) var showsInspector = false
    private(set) var inspectorEntity = 0
    /// A one-line note for the footer (cleared by the next key).
    private(set) var message: String?
    /// Whether the inspector can be opened (`KIF_SKIP_TEAR_DOWN`).
    var inspectorAvailable: Bool
    /// How the run was ordered or cut (`seed 42  shard 2/3`), shown in the status line.
    var statusNote: String?

    package init(inspectorAvailable: Bool = false, statusNote: String? = nil) {
        self.inspectorAvailable = inspectorAvailable
        self.statusNote = statusNote
    }

    // MARK: Events

    /// Reduces one run event into the state.
    package mutating func apply(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan):
            for planned in plan.scenarios {
                if let old = scenarios[planned.id] {
                    count(old.status, in: planned.id.file, by: -1)
                } else {
                    counts.total += 1
                    countsByFile[planned.id.file, default: Counts()].total += 1
                    order.append(planned.id)
                    if featureNames[planned.id.file] == nil {
                        files.append(planned.id.file)
                        featureNames[planned.id.file] = planned.feature
                    }
                }
                scenarios[planned.id] = ScenarioState(planned)
                inspections[planned.id] = nil
                tries[planned.id] = nil
            }
            refreshRows()
            runCount += 1
            runState = .running
            running = nil
            runStartedAt = now
            followsRunning = true
        case .scenarioStarted(let id):
            if let planned = scenarios[id]?.planned, tries[id, default: (0, 0)].started > 0 {
                // Another try: its steps start afresh.
                scenarios[id]?.steps = planned.steps.map { StepState(planned: $0) }
                scenarios[id]?.logs = []
                scenarios[id]?.failedStep = nil
            }
            tries[id, default: (0, 0)].started += 1
            setStatus(.running, of: id)
            running = id
            if followsRunning, rowIndex[.scenario(id)] != nil {
                selection = .scenario(id)
                stepSelection = nil
            }
        case .stepStarted(let id, let step, _):
            updateStep(id, step) { $0.status = .running }
        case .stepWaiting(let id, let step, let reason, let waited):
            updateStep(id, step) {
                $0.waited = waited
                $0.waitReason = reason
            }
        case .stepFinished(let id, let step, _, let outcome, let duration):
            updateStep(id, step) {
                $0.duration = duration
                switch outcome {
                case .passed: $0.status = .passed
                case .skipped: $0.status = .skipped
                case .warned(let reason):
                    $0.status = .warned
                    $0.warning = reason
                case .failed(let reason, let location):
                    $0.status = .failed
                    $0.failure = reason
                    $0.failureLocation = location
                }
            }
        case .log(let id, let line):
            scenarios[id]?.logs.append(line)
        case .attemptFinished(let id, _, let outcome, _):
            if case .failed = outcome { tries[id, default: (0, 0)].failed += 1 }
        case .scenarioFinished(let id, let outcome, let duration):
            guard var scenario = scenarios[id] else { break }
            scenario.duration = duration
            if case .failed(let step, _) = outcome { scenario.failedStep = step }
            scenarios[id] = scenario
            if outcome == .passed, let count = tries[id], count.failed > 0 {
                flaky[id] = (count.failed, count.started)
            }
            switch outcome {
            case .passed: setStatus(.passed, of: id)
            case .skipped: setStatus(.skipped, of: id)
            case .failed: setStatus(.failed, of: id)
            }
            if running == id { running = nil }
            if filterMode == .failed { refreshRows() }
        case .runFinished(let summary):
            runState = summary.cancelled ? .cancelled : .finished
            running = nil
            lastElapsed = summary.duration
            runStartedAt = nil
        }
        normalizeSelection()
    }

    private mutating func setStatus(_ status: ScenarioStatus, of id: ScenarioID) {
        guard let old = scenarios[id]?.status else { return }
        count(old, in: id.file, by: -1)
        scenarios[id]?.status = status
        count(status, in: id.file, by: 1)
    }

    /// Adds (or with -1 removes) a status's share of the done and failed totals.
    private mutating func count(_ status: ScenarioStatus, in file: String, by delta: Int) {
        let done = status.isDone ? delta : 0
        let failed = status == .failed ? delta : 0
        guard done != 0 || failed != 0 else { return }
        counts.done += done
        counts.failed += failed
        countsByFile[file, default: Counts()].done += done
        countsByFile[file, default: Counts()].failed += failed
    }

    /// Keeps what the inspector will show for a scenario that just finished.
    mutating func record(_ snapshot: InspectorSnapshot, for id: ScenarioID) {
        inspections[id] = snapshot
    }

    private mutating func updateStep(_ id: ScenarioID, _ step: Int, _ change: (inout StepState) -> Void) {
        guard var scenario = scenarios[id], scenario.steps.indices.contains(step) else { return }
        change(&scenario.steps[step])
        scenarios[id] = scenario
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
        if filterMode == .failed, scenarios[id]?.status != .failed { return false }
        guard !filterText.isEmpty else { return true }
        let needle = filterText.lowercased()
        return id.name.lowercased().contains(needle) || (featureNames[id.file] ?? id.file).lowercased().contains(needle)
    }

    /// The position of a row in ``rows``.
    func index(of row: Row) -> Int? { rowIndex[row] }

    private mutating func refreshRows() {
        var rows: [Row] = []
        var byFile: [String: [ScenarioID]] = [:]
        for id in order where matchesFilter(id) { byFile[id.file, default: []].append(id) }
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

    // MARK: Keys

    /// Handles one key; returns what the loop must do, if anything.
    mutating func handle(_ key: Key) -> TUIAction? {
        message = nil
        if key == .resize { return nil }
        if isEditingFilter, let handled = handleFilterEditing(key) {
            normalizeSelection()
            return handled.action
        }
        if showsHelp {
            showsHelp = false
            if key == .escape || key == .character("?") { return nil }
        }
        if showsInspector, handleInspector(key) { return nil }
        defer { normalizeSelection() }
        switch key {
        case .up, .character("k"): move(by: -1)
        case .down, .character("j"): move(by: 1)
        case .pageUp: move(by: -10)
        case .pageDown: move(by: 10)
        case .home: move(by: -Int.max / 2)
        case .end: move(by: Int.max / 2)
        case .tab:
            focus = focus == .tree ? .steps : .tree
            if focus == .steps, stepSelection == nil { stepSelection = detailStep ?? 0 }
        case .enter: toggleExpansion()
        case .left:
            if case .feature(let file)? = selection { collapsed.insert(file) } else { focus = .tree }
        case .right:
            if case .feature(let file)? = selection { collapsed.remove(file) }
        case .escape:
            if !filterText.isEmpty {
                filterText = ""
            } else {
                focus = .tree
            }
        case .character("a"): filterMode = .all
        case .character("f"): filterMode = filterMode == .failed ? .all : .failed
        case .character("/"):
            isEditingFilter = true
        case .character("?"): showsHelp = true
        case .character("i"):
            if inspectorAvailable {
                showsInspector = true
                inspectorEntity = 0
            } else {
                message = "The inspector needs KIF_SKIP_TEAR_DOWN=1 (tear-down keeps the state then)."
            }
        case .character("r"):
            guard canStartRun() else { return nil }
            switch selection {
            case .scenario(let id)?: return .rerun([id])
            case .feature(let file)?: return .rerun(order.filter { $0.file == file })
            case nil: return nil
            }
        case .character("R"):
            guard canStartRun() else { return nil }
            return .rerunAll
        case .character("F"):
            guard canStartRun() else { return nil }
            let failed = failedIDs
            guard !failed.isEmpty else {
                message = "No failed scenario to re-run."
                return nil
            }
            return .rerunFailed(failed)
        case .character("c"):
            guard runState == .running else {
                message = runState == .cancelling ? "Cancelling…" : "No run in progress."
                return nil
            }
            runState = .cancelling
            return .cancel
        case .character("q"):
            return .quit
        default:
            break
        }
        return nil
    }

    private mutating func canStartRun() -> Bool {
        guard !isRunning else {
            message = "A run is in progress: press c to cancel it first."
            return false
        }
        return true
    }

    private struct Handled {
        var action: TUIAction?
    }

    /// Keys while typing the text filter; nil when the key is not the filter's.
    private mutating func handleFilterEditing(_ key: Key) -> Handled? {
        switch key {
        case .escape:
            filterText = ""
            isEditingFilter = false
        case .enter, .tab:
            isEditingFilter = false
        case .backspace:
            if filterText.isEmpty { isEditingFilter = false } else { filterText.removeLast() }
        case .character(let character):
            filterText.append(character)
        default:
            return nil
        }
        return Handled(action: nil)
    }

    /// Keys while the inspector is open; false when the key is not the inspector's.
    private mutating func handleInspector(_ key: Key) -> Bool {
        switch key {
        case .escape, .character("i"):
            showsInspector = false
        case .up, .character("k"):
            inspectorEntity = max(0, inspectorEntity - 1)
        case .down, .character("j"):
            let count = shownInspection?.entities.count ?? 0
            inspectorEntity = min(max(0, count - 1), inspectorEntity + 1)
        default:
            return false
        }
        return true
    }

    private mutating func move(by delta: Int) {
        if focus == .steps, let id = shownScenario, let scenario = scenarios[id], !scenario.steps.isEmpty {
            let current = stepSelection ?? 0
            stepSelection = min(scenario.steps.count - 1, max(0, current.addingReportingOverflow(delta).partialValue))
            return
        }
        guard !rows.isEmpty else { return }
        followsRunning = false
        let current = selection.flatMap { rowIndex[$0] } ?? 0
        let target = min(rows.count - 1, max(0, current.addingReportingOverflow(delta).partialValue))
        selection = rows[target]
        stepSelection = nil
    }

    private mutating func toggleExpansion() {
        switch selection {
        case .feature(let file)?:
            if collapsed.contains(file) { collapsed.remove(file) } else { collapsed.insert(file) }
        case .scenario?:
            focus = focus == .tree ? .steps : .tree
            if focus == .steps, stepSelection == nil { stepSelection = detailStep ?? 0 }
        case nil:
            break
        }
    }

    /// Keeps the selection on a visible row: the running scenario when followed, else the first row.
    private mutating func normalizeSelection() {
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
