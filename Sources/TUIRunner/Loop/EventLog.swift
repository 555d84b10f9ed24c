import Scenarios

/// The events of every run of a session, merged into one run for the reporters: the plan of every
/// scenario seen, and for each scenario the events of its latest run.
struct EventLog: Sendable {
    private var planned: [RunPlan.PlannedScenario] = []
    private var index: [ScenarioID: Int] = [:]
    private var latest: [ScenarioID: [RunEvent]] = [:]
    private var duration: Duration = .zero
    private var cancelled = false
    private(set) var runs = 0

    mutating func record(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan):
            runs += 1
            for scenario in plan.scenarios {
                if let position = index[scenario.id] {
                    planned[position] = scenario
                } else {
                    index[scenario.id] = planned.count
                    planned.append(scenario)
                }
                latest[scenario.id] = []
            }
        case .runFinished(let summary):
            duration += summary.duration
            cancelled = summary.cancelled
        default:
            if let id = event.scenario { latest[id, default: []].append(event) }
        }
    }

    /// One run's worth of events — `runStarted`, every scenario's latest events (a scenario that never
    /// finished reported skipped), `runFinished` — and its totals, counted by the run's tally as every
    /// run is (none before the first run).
    func merged() -> (events: [RunEvent], summary: RunSummary) {
        guard runs > 0 else { return ([], RunSummary()) }
        var tally = RunTally()
        var events: [RunEvent] = [.runStarted(RunPlan(scenarios: planned))]
        tally.record(events[0])
        for scenario in planned {
            var scenarioEvents = latest[scenario.id] ?? []
            if !scenarioEvents.contains(where: { if case .scenarioFinished = $0 { true } else { false } }) {
                scenarioEvents.append(.scenarioFinished(scenario.id, outcome: .skipped, duration: .zero))
            }
            for event in scenarioEvents {
                tally.record(event)
                events.append(event)
            }
        }
        events += tally.finish(duration: duration, cancelled: cancelled)
        return (events, tally.summary)
    }
}
