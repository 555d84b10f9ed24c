import Scenarios

/// The events of a run cancelled before it began: every scenario skipped.
enum RunEvents {
    static func skipping(_ scenarios: [Scenario], plan: RunPlan, emit: (RunEvent) -> Void) -> RunSummary {
        emit(.runStarted(plan))
        for scenario in scenarios { emit(.scenarioFinished(scenario.id, outcome: .skipped, duration: .zero)) }
        let summary = RunSummary(passed: 0, failed: 0, skipped: scenarios.count, duration: .zero, cancelled: true)
        emit(.runFinished(summary))
        return summary
    }
}
