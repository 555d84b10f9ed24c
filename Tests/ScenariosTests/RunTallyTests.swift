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
        #expect(counting.end(of: ids[0]) == nil && remembering.end(of: ids[0]) != nil)
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

    /// Ends in any order count as in the plan's: a parallel run's come out of order, a late one after.
    @Test func endsOutOfThePlansOrderCountTheSame() {
        let outcomes: [ScenarioOutcome] = [.passed, .failed(step: 1, reason: "No"), .skipped, .passed]
        var inOrder = RunTally()
        var shuffled = RunTally()
        inOrder.record(.runStarted(plan))
        shuffled.record(.runStarted(plan))
        for place in [0, 1, 2, 3] {
            inOrder.record(.scenarioFinished(ids[place], outcome: outcomes[place], duration: .milliseconds(place)))
        }
        for place in [2, 0, 3, 1, 0] {
            shuffled.record(.scenarioFinished(ids[place], outcome: outcomes[place], duration: .milliseconds(place)))
        }
        #expect(shuffled.summary == inOrder.summary)
        #expect(shuffled.summary == RunSummary(passed: 2, failed: 1, skipped: 1))
        for place in ids.indices {
            #expect(shuffled.end(at: place)?.outcome == outcomes[place])
            #expect(shuffled.end(of: ids[place])?.duration == .milliseconds(place))
            #expect(inOrder.end(at: place)?.outcome == outcomes[place])
        }
        #expect(shuffled.unfinished.isEmpty && inOrder.unfinished.isEmpty)
        #expect(shuffled.end(at: 4) == nil)
    }

    /// A scenario the plan does not have still counts once, and is remembered.
    @Test func anEndOutsideThePlanCountsOnce() {
        var tally = RunTally()
        tally.record(.runStarted(plan))
        let stranger = ScenarioID(file: "c.yml", name: "Elsewhere")
        tally.record(.scenarioFinished(stranger, outcome: .failed(step: 0, reason: "No"), duration: .zero))
        tally.record(.scenarioFinished(stranger, outcome: .passed, duration: .zero))
        #expect(tally.summary == RunSummary(failed: 1))
        #expect(tally.end(of: stranger)?.outcome == .failed(step: 0, reason: "No"), "the first end counts")
        #expect(tally.unfinished == ids)
    }

    /// Places in the plan's order, asked again, out of order, unknown: the same answers as an index's.
    @Test func planPlacesFindEveryIdWhereverAsked() {
        let places = PlanPlaces(ids)
        #expect(places.place(of: ids[0]) == 0)
        #expect(places.place(of: ids[0]) == 0, "asked again")
        #expect(places.place(of: ids[1]) == 1)
        #expect(places.place(of: ids[3]) == 3, "out of order")
        #expect(places.place(of: ids[2]) == 2)
        #expect(places.place(of: ids[3]) == 3)
        #expect(places.place(of: ScenarioID(file: "a.yml", name: "S9")) == nil)
        #expect(PlanPlaces([]).place(of: ids[0]) == nil)
        // Each id, in every order of three, where it is.
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [3, 3, 0]] {
            let fresh = PlanPlaces(ids)
            for place in order { #expect(fresh.place(of: ids[place]) == place) }
        }
    }
}
