package import Scenarios

/// The events of a run cancelled before it began: every scenario skipped.
package enum RunEvents {
    package static func skipping(_ scenarios: [Scenario], plan: RunPlan, emit: (RunEvent) -> Void) -> RunSummary {
        var tally = RunTally(scenarios: scenarios.map(\.id))
        emit(.runStarted(plan))
        for event in tally.finish(duration: .zero, cancelled: true) { emit(event) }
        return tally.summary
    }
}
