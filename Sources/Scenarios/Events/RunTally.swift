/// The totals of a run, counted once, from its events: every executor (in-process, workers, the exit
/// guard, a run cancelled before it began) ends a run through it, and every reporter reads its counts
/// from it — so `12 passed, 1 failed`, JUnit's `failures="1"` and the live runner's bar can never
/// disagree.
///
/// A scenario counts once, by its first `scenarioFinished` (a second one — a worker's late report of a
/// scenario the parent already failed — changes nothing). A planned scenario that never finished is
/// skipped: ``finish(duration:cancelled:)`` reports it so.
///
/// ```swift
/// var tally = RunTally()
/// for event in events { tally.record(event) }
/// tally.summary.line                                     // "12 passed, 1 failed"
/// let closing = tally.finish(duration: elapsed, cancelled: false)   // skipped events, then runFinished
/// ```
package struct RunTally: Sendable, Hashable {
    /// The scenarios of the run, in order (empty before `runStarted`).
    package private(set) var order: [ScenarioID] = []
    /// How each finished scenario ended, and how long it took (its last try, as its `scenarioFinished`
    /// says): one entry a scenario, since a run's tallies live as long as the run.
    private var finished: [ScenarioID: Finish] = [:]
    /// The counts so far; the duration and `cancelled` once the run finished.
    package private(set) var summary = RunSummary()
    /// Whether `runFinished` was recorded.
    package private(set) var isFinished = false
    /// Whether each end is remembered (``counting()`` does not).
    private var remembersEnds = true

    package init() {}

    /// A tally that counts each `scenarioFinished` it is given without remembering the scenario: for a
    /// source that ends each scenario exactly once (``ScenarioRunner``), so that a run of thousands of
    /// scenarios keeps no record of each — a worker keeps nothing of the scenarios it ran. It knows no
    /// plan's order: ``unfinished`` is empty, ``hasFinished(_:)`` false.
    package static func counting() -> RunTally {
        var tally = RunTally()
        tally.remembersEnds = false
        return tally
    }

    /// A tally of a run of `scenarios`, before any event.
    package init(scenarios: [ScenarioID]) {
        order = scenarios
    }

    /// Counts `event`: a new run starts from nothing; a scenario's first end counts; the run's end
    /// keeps its duration and whether it was cancelled (its counts are this tally's own).
    package mutating func record(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan):
            self = remembersEnds ? RunTally(scenarios: plan.scenarios.map(\.id)) : .counting()
        case .scenarioFinished(let id, let outcome, let duration):
            count(id, outcome, duration)
        case .runFinished(let finished):
            summary.duration = finished.duration
            summary.cancelled = finished.cancelled
            isFinished = true
        default:
            break
        }
    }

    /// Whether the scenario has finished (and counted).
    package func hasFinished(_ id: ScenarioID) -> Bool { finished[id] != nil }

    /// How the scenario ended and how long it took, read at once; `nil` while it has not finished.
    package func end(of id: ScenarioID) -> (outcome: ScenarioOutcome, duration: Duration)? {
        finished[id].map { ($0.outcome, $0.duration) }
    }

    /// The planned scenarios that have not finished, in order.
    package var unfinished: [ScenarioID] { order.filter { finished[$0] == nil } }

    /// Ends the run: a skipped `scenarioFinished` for every planned scenario that did not finish, then
    /// `runFinished` with the totals — the events to report, already counted.
    package mutating func finish(duration: Duration, cancelled: Bool) -> [RunEvent] {
        var events = skipUnfinished()
        var totals = summary
        totals.duration = duration
        totals.cancelled = cancelled
        events.append(.runFinished(totals))
        record(.runFinished(totals))
        return events
    }

    /// A skipped `scenarioFinished` for every planned scenario that did not finish, counted.
    package mutating func skipUnfinished() -> [RunEvent] {
        let events = unfinished.map { RunEvent.scenarioFinished($0, outcome: .skipped, duration: .zero) }
        for event in events { record(event) }
        return events
    }

    private mutating func count(_ id: ScenarioID, _ outcome: ScenarioOutcome, _ duration: Duration) {
        if remembersEnds {
            guard finished[id] == nil else { return }
            finished[id] = Finish(outcome: outcome, duration: duration)
        }
        switch outcome {
        case .passed: summary.passed += 1
        case .failed: summary.failed += 1
        case .skipped: summary.skipped += 1
        }
    }

    /// How a scenario ended.
    private struct Finish: Sendable, Hashable {
        var outcome: ScenarioOutcome
        var duration: Duration
    }
}
