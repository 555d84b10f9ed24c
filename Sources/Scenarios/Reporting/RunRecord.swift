import Synchronization

/// What reporters remember of a run, reduced from its events.
struct RunRecord: Sendable {
    struct ScenarioRecord: Sendable {
        var outcome: ScenarioOutcome?
        var duration: Duration = .zero
        /// Each planned step's outcome in the last try, by its place in the plan (`nil`: not run).
        var steps: [StepOutcome?] = []
        var logs: [String] = []
        /// The last try's request log, and how many more requests it left out (lines are made only by the
        /// reporter that writes them).
        var requests: [LoggedRequest] = []
        var droppedRequests = 0
        /// How many tries started (`--repeat`, `--retries`); the steps and logs are the last try's.
        var tries = 0
        /// How many tries passed: each passing try is one repetition of `--repeat` done.
        var passedTries = 0
        /// The earlier tries that failed: their failing step and reason, and the repetition they ran.
        var failedTries: [(step: Int, reason: String, repetition: Int)] = []

        /// `… and 3 more requests, not logged`: the request log's last line when it left some out.
        var droppedRequestsLine: String {
            "… and \(droppedRequests) more request\(droppedRequests == 1 ? "" : "s"), not logged"
        }

        /// The repetition of `--repeat` the last try ran (1 for the first): the passed tries before it, plus one.
        var repetition: Int {
            outcome == .passed ? passedTries : passedTries + 1
        }

        /// What a scenario run more than once says after its time: `15 repetitions`, `failed on repetition 7
        /// of 15`, `3 tries` (`--retries`), both when a repetition was retried; `nil` for a single run.
        func tryNote(repetitions: Int) -> String? {
            var notes: [String] = []
            var triesExpected = repetition
            switch outcome {
            case .passed? where repetitions > 1:
                notes.append(
                    repetition == repetitions
                        ? "\(repetitions) repetitions" : "\(repetition) of \(repetitions) repetitions"
                )
            case .failed? where repetitions > 1:
                notes.append("failed on repetition \(repetition) of \(repetitions)")
            case .skipped?:
                return nil
            default:
                triesExpected = 1
            }
            if tries > triesExpected { notes.append("\(tries) tries") }
            return notes.isEmpty ? nil : notes.joined(separator: ", ")
        }
    }

    /// A scenario that passed after some of its tries failed.
    struct Flaky: Sendable, Equatable {
        var id: ScenarioID
        var failedTries: Int
        var tries: Int

        /// `FLAKY 1/2 NAME`: one of its two tries failed.
        var line: String { "FLAKY \(failedTries)/\(tries) \(id.name)" }
    }

    var plan = RunPlan(scenarios: [])
    /// Each scenario's record but the current one's: a scenario's events come one after another, and
    /// looking its record up by its identity (two strings hashed) for every event was most of the cost of
    /// recording it — the one events came for last is kept apart, changed in place, and found by comparing.
    private var others: [ScenarioID: ScenarioRecord] = [:]
    private var currentID: ScenarioID?
    private var current = ScenarioRecord()
    var summary: RunSummary?
    /// The run's totals and each scenario's outcome and time: what every count in a report is read from.
    private(set) var tally = RunTally()
    /// The flaky scenarios, in the order they finished.
    var flaky: [Flaky] = []

    /// Whether ``apply(_:)`` keeps nothing of `event` (a step's start, a wait, the requests sent): a
    /// reporter may leave it out.
    static func keepsNothing(of event: RunEvent) -> Bool {
        switch event {
        case .stepStarted, .stepWaiting, .requests: true
        default: false
        }
    }

    mutating func apply(_ event: RunEvent) {
        tally.record(event)
        switch event {
        case .runStarted(let plan):
            self.plan = plan
            others = [:]
            currentID = nil
            current = ScenarioRecord()
            summary = nil
            flaky = []
        case .scenarioStarted(let id, _):
            // A new try starts clean, remembering how the earlier ones went; a place for each planned step.
            let stepCount = planned(id)?.steps.count ?? 0
            update(id) { record in
                var next = ScenarioRecord()
                next.steps = Array(repeating: nil, count: stepCount)
                next.tries = record.tries + 1
                next.passedTries = record.passedTries
                next.failedTries = record.failedTries
                record = next
            }
        case .attemptFinished(let id, _, let outcome, _):
            update(id) { record in
                if case .failed(let step, let reason) = outcome {
                    record.failedTries.append((step, reason, record.passedTries + 1))
                } else if outcome == .passed {
                    record.passedTries += 1
                }
            }
        case .stepStarted, .stepWaiting, .requests:
            break
        case .requestLog(let id, let requests, let dropped):
            update(id) { record in
                record.requests = requests
                record.droppedRequests = dropped
            }
        case .stepFinished(let id, let step, _, let outcome, _):
            // A step the plan does not have is never shown (``stepLines(_:)`` reads the plan's).
            update(id) { record in
                if record.steps.indices.contains(step) { record.steps[step] = outcome }
            }
        case .log(let id, let line):
            update(id) { $0.logs.append(line) }
        case .scenarioFinished(let id, let outcome, let duration):
            let flakyTries = update(id) { record -> (failed: Int, tries: Int)? in
                record.outcome = outcome
                record.duration = duration
                guard outcome == .passed else { return nil }
                record.passedTries += 1
                return record.failedTries.isEmpty ? nil : (record.failedTries.count, record.tries)
            }
            if let flakyTries { flaky.append(Flaky(id: id, failedTries: flakyTries.failed, tries: flakyTries.tries)) }
        case .runFinished(let summary):
            self.summary = summary
        }
    }

    /// The record of scenario `id`, if it has one.
    func scenario(_ id: ScenarioID) -> ScenarioRecord? {
        currentID == id ? current : others[id]
    }

    /// Forgets the record of scenario `id` (a reporter that wrote it out keeps nothing of it).
    mutating func forget(_ id: ScenarioID) {
        if currentID == id {
            currentID = nil
            current = ScenarioRecord()
        } else {
            others[id] = nil
        }
    }

    /// Changes the record of `id` (a new one when it has none), which becomes the current one: changed where
    /// it is, so that its lists are not copied.
    private mutating func update<T>(_ id: ScenarioID, _ change: (inout ScenarioRecord) -> T) -> T {
        if currentID != id {
            if let previous = currentID { others[previous] = current }
            current = others.removeValue(forKey: id) ?? ScenarioRecord()
            currentID = id
        }
        return change(&current)
    }

    /// The planned scenario with this id.
    func planned(_ id: ScenarioID) -> RunPlan.PlannedScenario? {
        place(of: id).map { plan.scenarios[$0] }
    }

    /// Where the scenario with this id is in ``plan`` (found as ``tally`` finds it).
    func place(of id: ScenarioID) -> Int? {
        tally.place(of: id)
    }

    /// Whether scenario `id` has steps and every one of them passed in its last try: what
    /// ``stepLines(_:)`` would give all passed, without making the lines.
    func allStepsPassed(_ id: ScenarioID) -> Bool {
        guard let planned = planned(id), !planned.steps.isEmpty, let outcomes = scenario(id)?.steps,
            outcomes.count >= planned.steps.count
        else { return false }
        return outcomes.prefix(planned.steps.count).allSatisfy { if case .passed? = $0 { true } else { false } }
    }

    /// The step lines of a scenario: `✓ description`, `✗ description`, `⚠ description`, `- description (skipped)`.
    func stepLines(_ id: ScenarioID) -> [(glyph: StepGlyph, description: String, outcome: StepOutcome?)] {
        guard let planned = planned(id) else { return [] }
        let record = scenario(id)
        return planned.steps.enumerated().map { index, step in
            let outcome = record.flatMap { $0.steps.indices.contains(index) ? $0.steps[index] : nil }
            let glyph: StepGlyph
            switch outcome {
            case .passed?: glyph = .passed
            case .failed?: glyph = .failed
            case .warned?: glyph = .warned
            case .skipped?, nil: glyph = .skipped
            }
            return (glyph, step.description, outcome)
        }
    }

    enum StepGlyph: String {
        case passed = "✓"
        case failed = "✗"
        case warned = "⚠"
        case skipped = "-"
    }
}

/// One ``RunRecord`` for several reporters of a run that handle the same events (the headless run's plain
/// and JUnit reporters): each event applied to it once, by ``apply(_:)`` before the reporters handle it, and
/// a finished scenario's steps and logs forgotten once, by ``handled(_:)`` after they have. A reporter with a
/// record of its own applied every event again: about 9 k instructions a scenario each.
///
/// ```swift
/// let record = SharedRunRecord()
/// let plain = PlainReporter(record: record) { print($0, terminator: "") }
/// let junit = JUnitReporter(record: record)
/// for event in events {
///     record.apply(event)
///     plain.handle(event)
///     junit.handle(event)
///     record.handled(event)
/// }
/// ```
package final class SharedRunRecord: Sendable {
    let record = Mutex(RunRecord())

    package init() {}

    /// Records `event`, before the reporters handle it.
    package func apply(_ event: RunEvent) {
        if RunRecord.keepsNothing(of: event) { return }
        record.withLock { $0.apply(event) }
    }

    /// After the reporters handled `event`: a finished scenario's steps and logs are forgotten, so memory
    /// stays flat however long the run.
    package func handled(_ event: RunEvent) {
        guard case .scenarioFinished(let id, _, _) = event else { return }
        record.withLock { $0.forget(id) }
    }
}
