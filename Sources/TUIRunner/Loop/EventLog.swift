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
        case .scenarioStarted(let id), .stepStarted(let id, _, _), .stepWaiting(let id, _, _, _),
            .stepFinished(let id, _, _, _, _), .log(let id, _), .attemptFinished(let id, _, _, _),
            .scenarioFinished(let id, _, _):
            latest[id, default: []].append(event)
        case .runFinished(let summary):
            duration += summary.duration
            cancelled = summary.cancelled
        }
    }

    /// The totals over the latest outcome of every scenario (skipped when it never finished).
    var summary: RunSummary {
        var summary = RunSummary(duration: duration, cancelled: cancelled)
        for scenario in planned {
            switch outcome(of: scenario.id) {
            case .passed?: summary.passed += 1
            case .failed?: summary.failed += 1
            case .skipped?, nil: summary.skipped += 1
            }
        }
        return summary
    }

    private func outcome(of id: ScenarioID) -> ScenarioOutcome? {
        for event in (latest[id] ?? []).reversed() {
            if case .scenarioFinished(_, let outcome, _) = event { return outcome }
        }
        return nil
    }

    /// One run's worth of events: `runStarted`, every scenario's latest events, `runFinished`.
    var mergedEvents: [RunEvent] {
        guard runs > 0 else { return [] }
        var events: [RunEvent] = [.runStarted(RunPlan(scenarios: planned))]
        for scenario in planned {
            let scenarioEvents = latest[scenario.id] ?? []
            events += scenarioEvents
            if outcome(of: scenario.id) == nil {
                events.append(.scenarioFinished(scenario.id, outcome: .skipped, duration: .zero))
            }
        }
        events.append(.runFinished(summary))
        return events
    }
}
