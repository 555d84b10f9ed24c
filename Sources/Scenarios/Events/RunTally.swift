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
package struct RunTally: Sendable {
    /// The scenarios of the run, in order (empty before `runStarted`).
    package var order: [ScenarioID] { places.ids }
    /// Where each scenario is in ``order``.
    private var places = PlanPlaces([])
    /// How each planned scenario ended, and how long it took (its last try, as its `scenarioFinished`
    /// says), by its place in ``order``; `nil` while it has not finished. An array the plan's length, since
    /// a run's tallies live as long as the run: no table of ids grown scenario by scenario.
    private var ends: [Finish?] = []
    /// The ends of scenarios the plan does not have (a tally given no plan).
    private var others: [ScenarioID: Finish] = [:]
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
    /// plan's order: ``unfinished`` is empty, ``end(of:)`` `nil`.
    package static func counting() -> RunTally {
        var tally = RunTally()
        tally.remembersEnds = false
        return tally
    }

    /// A tally of a run of `scenarios`, before any event.
    package init(scenarios: [ScenarioID]) {
        places = PlanPlaces(scenarios)
        ends = Array(repeating: nil, count: scenarios.count)
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

    /// Where the scenario is in ``order``, or `nil` when the plan does not have it.
    package func place(of id: ScenarioID) -> Int? { places.place(of: id) }

    /// How the scenario ended and how long it took, read at once; `nil` while it has not finished.
    package func end(of id: ScenarioID) -> (outcome: ScenarioOutcome, duration: Duration)? {
        finish(of: id).map { ($0.outcome, $0.duration) }
    }

    /// How the scenario at `place` in ``order`` ended, and how long it took; `nil` while it has not finished.
    package func end(at place: Int) -> (outcome: ScenarioOutcome, duration: Duration)? {
        guard ends.indices.contains(place), let finish = ends[place] else { return nil }
        return (finish.outcome, finish.duration)
    }

    /// The planned scenarios that have not finished, in order.
    package var unfinished: [ScenarioID] { order.indices.filter { ends[$0] == nil }.map { order[$0] } }

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

    private func finish(of id: ScenarioID) -> Finish? {
        if let place = places.place(of: id) { return ends[place] }
        return others[id]
    }

    private mutating func count(_ id: ScenarioID, _ outcome: ScenarioOutcome, _ duration: Duration) {
        if remembersEnds {
            let finish = Finish(outcome: outcome, duration: duration)
            if let place = places.place(of: id) {
                guard ends[place] == nil else { return }
                ends[place] = finish
            } else {
                guard others[id] == nil else { return }
                others[id] = finish
            }
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
