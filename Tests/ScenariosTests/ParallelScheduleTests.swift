import Scenarios
import Testing

/// The bookkeeping of `--jobs`: hand-out order and prefetch, refills, fail-fast, crashed workers,
/// cancellation, and every scenario accounted for at the end.
struct ParallelScheduleTests {
    let ids = (0..<5).map { ScenarioID(file: "s.yml", name: "S\($0)") }

    @Test func handsOutInOrderAPrefetchAtATimeAndRefillsOnEachFinish() {
        var schedule = ParallelSchedule(scenarios: ids, workers: 2, prefetch: 2)
        #expect(schedule.assignments(for: 0) == [0, 1])
        #expect(schedule.assignments(for: 1) == [2, 3])
        #expect(schedule.assignments(for: 0) == [], "a worker holds at most the prefetch")

        #expect(schedule.handle(.scenarioStarted(ids[0]), from: 0).forward == .scenarioStarted(ids[0]))
        let finished = RunEvent.scenarioFinished(ids[0], outcome: .passed, duration: .zero)
        let (forward, next) = schedule.handle(finished, from: 0)
        #expect(forward == finished)
        #expect(next == [4])
        #expect(!schedule.isDone(0))
        for (index, worker) in [(1, 0), (2, 1), (3, 1), (4, 0)] {
            _ = schedule.handle(.scenarioFinished(ids[index], outcome: .passed, duration: .zero), from: worker)
        }
        #expect(schedule.isDone(0) && schedule.isDone(1))
        let (skipped, summary) = schedule.finish()
        #expect(skipped.isEmpty)
        #expect(summary == RunSummary(passed: 5))
    }

    /// A lone worker holds many ahead: it is topped up once it is down to half, in one hand-over, and
    /// every scenario is handed once, in order.
    @Test func aWorkerHoldingManyIsToppedUpByHalves() {
        let many = (0..<20).map { ScenarioID(file: "s.yml", name: "S\($0)") }
        var schedule = ParallelSchedule(scenarios: many, workers: 1, prefetch: 8)
        var handed = schedule.assignments(for: 0)
        #expect(handed == Array(0..<8))
        var handOvers = 0
        for index in 0..<20 {
            let next = schedule.handle(.scenarioFinished(many[index], outcome: .passed, duration: .zero), from: 0).send
            // Holding 8 − (index + 1) + what was handed since: nothing until only 3 are left.
            if !next.isEmpty {
                handOvers += 1
                #expect(next.count == 5 || handed.count + next.count == 20, "topped up to 8 from 3")
            }
            handed += next
        }
        #expect(handed == Array(0..<20))
        #expect(handOvers == 3, "8 at first, then 5, 5 and the last 2")
        #expect(schedule.isDone(0))
    }

    /// Several workers hold two at first; once scenarios finish, about the hold time's worth of work by
    /// their mean time (at most the prefetch), and never more than a worker's share of what is waiting,
    /// so they end together; long scenarios keep them at two.
    @Test func workersHoldAboutTheHoldTimeOfWorkAndTheirShareOfWhatIsLeft() {
        func schedule(_ count: Int) -> (ParallelSchedule, [ScenarioID]) {
            let ids = (0..<count).map { ScenarioID(file: "s.yml", name: "S\($0)") }
            return (ParallelSchedule(scenarios: ids, workers: 2, prefetch: 64, holdTime: .milliseconds(40)), ids)
        }
        func finished(_ id: ScenarioID, _ duration: Duration) -> RunEvent {
            .scenarioFinished(id, outcome: .passed, duration: duration)
        }
        // Two each at first; one millisecond a scenario: 40 (a worker down to one is topped up to 40).
        var (timed, ids) = schedule(200)
        #expect(timed.assignments(for: 0) == [0, 1])
        #expect(timed.assignments(for: 1) == [2, 3])
        #expect(timed.holdLimit == 2, "nothing finished: nothing known of their time")
        #expect(timed.handle(finished(ids[0], .milliseconds(1)), from: 0).send == Array(4..<43))
        #expect(timed.holdLimit == 40)
        // A microsecond a scenario: the prefetch caps it.
        var (quick, quickIDs) = schedule(1_000)
        _ = quick.assignments(for: 0)
        #expect(quick.handle(finished(quickIDs[0], .microseconds(1)), from: 0).send.count == 63)
        // Near the end, each worker's share of what is waiting: 10 scenarios, 4 handed, 1 finished, 6
        // waiting: at most 4 (6 / 2 + 1).
        var (short, shortIDs) = schedule(10)
        _ = short.assignments(for: 0)
        _ = short.assignments(for: 1)
        #expect(short.handle(finished(shortIDs[0], .microseconds(1)), from: 0).send == [4, 5, 6])
        #expect(short.holdLimit == 2, "3 waiting: 2 each")
        // A second a scenario: two at a time; and without a hold time, the prefetch.
        var (slow, slowIDs) = schedule(200)
        _ = slow.assignments(for: 0)
        #expect(slow.handle(finished(slowIDs[0], .seconds(1)), from: 0).send == [2])
        #expect(slow.holdLimit == 2)
        #expect(ParallelSchedule(scenarios: ids, workers: 2, prefetch: 8).holdLimit == 8)
    }

    /// A worker is told it gets nothing more once every scenario is handed out — not before, not only
    /// once it has run them — and a dead worker's scenarios then wait for a new worker, never going to
    /// one told it gets nothing more.
    @Test func aWorkerToldItGetsNothingMoreIsGivenNothingMore() {
        var schedule = ParallelSchedule(scenarios: ids, workers: 2, prefetch: 2)
        #expect(schedule.assignments(for: 0) == [0, 1])
        let early = schedule.closeIfNothingMore(0)
        #expect(!early, "three are still queued")
        #expect(schedule.assignments(for: 1) == [2, 3])
        #expect(schedule.handle(.scenarioFinished(ids[0], outcome: .passed, duration: .zero), from: 0).send == [4])
        let closed = [schedule.closeIfNothingMore(0), schedule.closeIfNothingMore(1)]
        #expect(closed == [true, true], "all handed out")
        _ = schedule.handle(.scenarioStarted(ids[2]), from: 1)
        let (_, send) = schedule.workerExited(1, failure: "crashed")
        #expect(send.isEmpty, "worker 0 gets nothing more")
        #expect(schedule.hasWork, "scenario 3 waits for a new worker")
        schedule.workerReplaced(1)
        #expect(schedule.assignments(for: 1) == [3])
        #expect(schedule.assignments(for: 0) == [])
    }

    @Test func runLevelEventsOfWorkersAreDropped() {
        var schedule = ParallelSchedule(scenarios: ids, workers: 1)
        #expect(schedule.handle(.runStarted(RunPlan(scenarios: [])), from: 0).forward == nil)
        #expect(schedule.handle(.runFinished(RunSummary()), from: 0).forward == nil)
    }

    @Test func failFastStopsHandingOutAndTheRestIsSkipped() {
        var schedule = ParallelSchedule(scenarios: ids, workers: 2, prefetch: 1, failFast: true)
        #expect(schedule.assignments(for: 0) == [0])
        #expect(schedule.assignments(for: 1) == [1])
        let (_, next) = schedule.handle(
            .scenarioFinished(ids[0], outcome: .failed(step: 1, reason: "No"), duration: .zero),
            from: 0
        )
        #expect(next.isEmpty)
        #expect(schedule.isDone(0))
        _ = schedule.handle(.scenarioFinished(ids[1], outcome: .passed, duration: .zero), from: 1)
        let (skipped, summary) = schedule.finish()
        #expect(skipped == [2, 3, 4].map { .scenarioFinished(ids[$0], outcome: .skipped, duration: .zero) })
        #expect(summary == RunSummary(passed: 1, failed: 1, skipped: 3))
    }

    @Test func aWorkerThatDiesFailsItsStartedScenarioAndGivesBackTheOthers() {
        var schedule = ParallelSchedule(scenarios: ids, workers: 2, prefetch: 2)
        _ = schedule.assignments(for: 0)  // 0, 1
        _ = schedule.assignments(for: 1)  // 2, 3
        _ = schedule.handle(.scenarioStarted(ids[0]), from: 0)
        _ = schedule.handle(.stepFinished(ids[0], step: 0, phase: .setUp, outcome: .passed, duration: .zero), from: 0)
        let (events, resend) = schedule.workerExited(
            0,
            failure: "The worker process running this scenario ended (signal 9) before it finished."
        )
        let reason = "The worker process running this scenario ended (signal 9) before it finished."
        #expect(
            events == [
                .stepFinished(
                    ids[0],
                    step: 1,
                    phase: .steps,
                    outcome: .failed(reason: reason, location: nil),
                    duration: .zero
                ),
                .scenarioFinished(ids[0], outcome: .failed(step: 1, reason: reason), duration: .zero),
            ]
        )
        #expect(resend.isEmpty, "the other worker already holds its prefetch")
        let (_, next) = schedule.handle(.scenarioFinished(ids[2], outcome: .passed, duration: .zero), from: 1)
        #expect(next == [1], "the dead worker's unstarted scenario comes first")
        #expect(schedule.assignments(for: 0) == [], "a dead worker gets nothing")
        for index in [3, 1, 4] {
            let (_, more) = schedule.handle(.scenarioFinished(ids[index], outcome: .passed, duration: .zero), from: 1)
            _ = more
        }
        #expect(schedule.finish().summary == RunSummary(passed: 4, failed: 1))
    }

    /// The steps a dead worker reported (its board's copy of what it never sent included) are not
    /// reported again; only steps it never reported, before the one its board names, are said passed.
    @Test func onlyStepsNeverReportedAreSaidPassed() {
        var schedule = ParallelSchedule(scenarios: ids, workers: 1, prefetch: 1)
        _ = schedule.assignments(for: 0)
        _ = schedule.handle(.scenarioStarted(ids[0]), from: 0)
        for step in 0..<2 {
            let finished = RunEvent.stepFinished(
                ids[0],
                step: step,
                phase: .steps,
                outcome: .passed,
                duration: .milliseconds(3)
            )
            _ = schedule.handle(finished, from: 0)
        }
        let interrupted = ParallelSchedule.Interrupted(scenario: ids[0], step: 3, earlierStepsPassed: true)
        let (events, _) = schedule.workerExited(0, running: interrupted, failure: "ended")
        let steps = events.compactMap { event -> Int? in
            if case .stepFinished(_, let step, _, _, _) = event { step } else { nil }
        }
        #expect(steps == [2, 3], "step 2 was never reported; 0 and 1 were")
    }

    @Test func cancelStopsHandingOutAndFinishReportsACancelledRun() {
        var schedule = ParallelSchedule(scenarios: ids, workers: 1, prefetch: 1)
        _ = schedule.assignments(for: 0)
        schedule.cancel()
        let (_, next) = schedule.handle(.scenarioFinished(ids[0], outcome: .passed, duration: .zero), from: 0)
        #expect(next.isEmpty)
        _ = schedule.workerExited(
            0,
            failure: "The worker process running this scenario ended (exit status 0) before it finished."
        )
        let (skipped, summary) = schedule.finish()
        #expect(skipped.count == 4)
        #expect(summary == RunSummary(passed: 1, skipped: 4, cancelled: true))
    }
}
