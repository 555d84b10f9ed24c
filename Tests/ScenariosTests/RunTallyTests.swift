import Diagnostics
import Scenarios
import Testing

/// The run's one count: every executor ends a run through `RunTally` and every reporter reads it.
struct RunTallyTests {
    let ids = (0..<4).map { ScenarioID(file: $0 < 2 ? "a.yml" : "b.yml", name: "S\($0)") }

    var plan: RunPlan {
        RunPlan(
            scenarios: ids.map {
                RunPlan.PlannedScenario(
                    id: $0,
                    feature: $0.file,
                    tags: [],
                    location: SourceLocation(file: $0.file, line: 1, column: 1),
                    steps: []
                )
            }
        )
    }

    @Test func aScenarioCountsOnceAndTheUnfinishedAreSkippedAtTheEnd() {
        var tally = RunTally()
        tally.record(.runStarted(plan))
        tally.record(.scenarioFinished(ids[0], outcome: .passed, duration: .milliseconds(5)))
        tally.record(.scenarioFinished(ids[1], outcome: .failed(step: 0, reason: "No"), duration: .zero))
        // A late second end of the same scenario (a worker's report after the parent failed it) counts not.
        tally.record(.scenarioFinished(ids[1], outcome: .passed, duration: .zero))
        #expect(tally.summary == RunSummary(passed: 1, failed: 1))
        #expect(tally.unfinished == [ids[2], ids[3]])
        let closing = tally.finish(duration: .seconds(2), cancelled: true)
        #expect(
            closing == [
                .scenarioFinished(ids[2], outcome: .skipped, duration: .zero),
                .scenarioFinished(ids[3], outcome: .skipped, duration: .zero),
                .runFinished(RunSummary(passed: 1, failed: 1, skipped: 2, duration: .seconds(2), cancelled: true)),
            ]
        )
        #expect(tally.isFinished)
        #expect(tally.end(of: ids[0])?.outcome == .passed)
        #expect(tally.end(of: ids[0])?.duration == .milliseconds(5))
        #expect(tally.end(of: ids[1])?.outcome == .failed(step: 0, reason: "No"), "the first end counts")
        #expect(tally.end(of: ids[3])?.outcome == .skipped)
    }

    /// The runner's tally counts each end it is given and keeps none: the same totals as the run's
    /// tally for one end a scenario, nothing remembered, a new run's start included.
    @Test func aCountingTallyKeepsNoScenario() {
        let events: [RunEvent] = [
            .runStarted(plan),
            .scenarioFinished(ids[0], outcome: .passed, duration: .milliseconds(5)),
            .scenarioFinished(ids[1], outcome: .failed(step: 0, reason: "No"), duration: .zero),
            .scenarioFinished(ids[2], outcome: .skipped, duration: .zero),
        ]
        var remembering = RunTally()
        var counting = RunTally.counting()
        for event in events {
            remembering.record(event)
            counting.record(event)
        }
        #expect(counting.summary == remembering.summary)
        #expect(counting.summary == RunSummary(passed: 1, failed: 1, skipped: 1))
        #expect(!counting.hasFinished(ids[0]) && remembering.hasFinished(ids[0]))
        #expect(counting.order.isEmpty && counting.unfinished.isEmpty)
        #expect(remembering.unfinished == [ids[3]])
    }

    @Test func aNewRunStartsFromNothing() {
        var tally = RunTally()
        tally.record(.runStarted(plan))
        tally.record(.scenarioFinished(ids[0], outcome: .passed, duration: .zero))
        tally.record(.runStarted(plan))
        #expect(tally.summary == RunSummary())
        #expect(tally.unfinished == ids)
        #expect(!tally.isFinished)
    }
}
