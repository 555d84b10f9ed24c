import Testing

@testable import Scenarios

/// What reporters remember of a run: each scenario's own steps, logs and tries, however the events of
/// several scenarios interleave (two workers), and nothing of a scenario once it is forgotten.
struct RunRecordTests {
    /// A record shared by reporters keeps a scenario until they have read its end, then forgets it: memory
    /// stays flat however long the run, as with a record of each reporter's own.
    @Test func aSharedRecordForgetsAScenarioOnceItsEndIsHandled() {
        let a = ScenarioID(file: "s.yml", name: "A")
        let shared = SharedRunRecord()
        let finished = RunEvent.scenarioFinished(a, outcome: .passed, duration: .seconds(1))
        for event: RunEvent in [
            .runStarted(RunPlan(scenarios: [ReporterTests.planned(a, feature: "F", line: 2, ["succeed"])])),
            .scenarioStarted(a),
            .log(a, "a's line"),
            finished,
        ] {
            shared.apply(event)
        }
        #expect(shared.record.withLock { $0.scenario(a)?.logs } == ["a's line"], "kept until handled")
        shared.handled(finished)
        #expect(shared.record.withLock { $0.scenario(a) } == nil)
        #expect(shared.record.withLock { $0.tally.end(at: 0)?.outcome } == .passed, "its count stays")
    }

    @Test func interleavedScenariosKeepTheirOwnRecords() {
        let a = ScenarioID(file: "s.yml", name: "A")
        let b = ScenarioID(file: "s.yml", name: "B")
        var record = RunRecord()
        let plan = RunPlan(scenarios: [
            ReporterTests.planned(a, feature: "F", line: 2, ["succeed"]),
            ReporterTests.planned(b, feature: "F", line: 6, ["succeed"]),
        ])
        for event: RunEvent in [
            .runStarted(plan),
            .scenarioStarted(a, worker: 0),
            .scenarioStarted(b, worker: 1),
            .stepFinished(a, step: 0, phase: .steps, outcome: .passed, duration: .zero),
            .log(b, "b's line"),
            .stepFinished(b, step: 0, phase: .steps, outcome: .failed(reason: "no", location: nil), duration: .zero),
            .log(a, "a's line"),
            .attemptFinished(b, attempt: 1, outcome: .failed(step: 0, reason: "no"), duration: .zero),
            .scenarioStarted(b, worker: 1),
            .scenarioFinished(a, outcome: .passed, duration: .seconds(1)),
            .stepFinished(b, step: 0, phase: .steps, outcome: .passed, duration: .zero),
            // A step the plan does not have (a forged or stale index) is kept nowhere.
            .stepFinished(b, step: 1_000_000_000, phase: .steps, outcome: .passed, duration: .zero),
            .scenarioFinished(b, outcome: .passed, duration: .seconds(2)),
        ] {
            record.apply(event)
        }
        #expect(record.scenario(a)?.logs == ["a's line"])
        #expect(record.scenario(a)?.steps[0] == .passed)
        #expect(record.scenario(a)?.tries == 1)
        #expect(record.scenario(a)?.duration == .seconds(1))
        // B's second try started clean: its first try's log is gone, its failure remembered.
        #expect(record.scenario(b)?.logs == [])
        #expect(record.scenario(b)?.steps == [.passed, nil, nil], "one place per planned step")
        #expect(record.scenario(b)?.tries == 2)
        #expect(record.scenario(b)?.failedTries.map(\.reason) == ["no"])
        #expect(record.flaky == [RunRecord.Flaky(id: b, failedTries: 1, tries: 2)])
        record.forget(b)
        #expect(record.scenario(b) == nil)
        #expect(record.scenario(a)?.logs == ["a's line"], "the other is kept")
        record.forget(a)
        #expect(record.scenario(a) == nil)
    }
}
