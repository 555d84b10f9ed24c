import Diagnostics
import RunPipeline
import ScenarioRunCLI
import Scenarios
import Testing

/// The worker pool's decisions without processes (the machine ``WorkerPool`` drives, as NIO's embedded
/// channel is to its sockets): scripted workers' lines and ends go in, the actions come out and are
/// checked — the crash, the watchdog, a launch that fails, Ctrl-C, surplus workers, a worker that died
/// while loading — each of which the process tests can only reach by timing.
struct WorkerPoolMachineTests {
    static let ids = (0..<3).map { ScenarioID(file: "Scenarios/a.yml", name: "S\($0)") }
    static let planned = Dictionary(
        uniqueKeysWithValues: ids.enumerated().map { index, id in
            (
                id,
                RunPlan.PlannedScenario(
                    id: id,
                    feature: "F",
                    tags: [],
                    location: Diagnostics.SourceLocation(file: "Scenarios/a.yml", line: 2 + 10 * index, column: 5),
                    steps: [
                        .init(description: "set up", phase: .setUp, location: nil),
                        .init(
                            description: "succeed",
                            phase: .steps,
                            location: Diagnostics.SourceLocation(
                                file: "Scenarios/a.yml",
                                line: 4 + 10 * index,
                                column: 9
                            )
                        ),
                        .init(
                            description: "block",
                            phase: .steps,
                            location: Diagnostics.SourceLocation(
                                file: "Scenarios/a.yml",
                                line: 5 + 10 * index,
                                column: 9
                            )
                        ),
                    ]
                )
            )
        }
    )
    static func plan(_ ids: [ScenarioID] = ids) -> RunPlan {
        RunPlan(scenarios: ids.compactMap { planned[$0] })
    }

    static func request(failFast: Bool = false) -> WorkerPoolMachine.RunRequest {
        .init(plan: plan(), failFast: failFast)
    }

    /// What a worker is handed for the scenarios `ids[k]`: a JSON line each — the position in the plan,
    /// the scenario's line, its file and its name (what the worker builds it from).
    static func lines(_ scenarios: Int...) -> String {
        scenarios.map { "[\($0),\(2 + 10 * $0),\"Scenarios/a.yml\",\"S\($0)\"]\n" }.joined()
    }

    static func passing(_ id: ScenarioID) -> [RunEventLines.Message] {
        [
            .event(.scenarioStarted(id, worker: nil)),
            .event(.stepFinished(id, step: 1, phase: .steps, outcome: .passed, duration: .milliseconds(2))),
            .event(.scenarioFinished(id, outcome: .passed, duration: .milliseconds(3))),
        ]
    }

    static func emitted(_ actions: [WorkerPoolMachine.Action]) -> [RunEvent] {
        actions.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

    static func finish(_ actions: [WorkerPoolMachine.Action]) -> RunSummary? {
        actions.compactMap { if case .finish(let summary) = $0 { summary } else { nil } }.first
    }

    @Test func twoWorkersRunEveryScenarioAndTheRunEndsWhenBothHaveEnded() {
        var machine = WorkerPoolMachine(.init(jobs: 2))
        #expect(machine.start() == [.launch(slot: 0), .launch(slot: 1)])
        // Two at a time each: worker 1 gets the first two (positions 0 and 1), worker 2 the third — and, every
        // scenario handed out, is told at once that it gets nothing more (its last scenario's end is its end).
        #expect(
            machine.run(Self.request()) == [
                .write(slot: 0, #"[0,2,"Scenarios/a.yml","S0"]"# + "\n" + #"[1,12,"Scenarios/a.yml","S1"]"# + "\n"),
                .write(slot: 1, Self.lines(2)),
                .closeInput(slot: 1),
            ]
        )
        let first = machine.received(Self.passing(Self.ids[0]), from: 0)
        #expect(Self.emitted(first).first == .scenarioStarted(Self.ids[0], worker: 1), "which worker, 1-based")
        #expect(Self.emitted(first).count == 3)
        #expect(first.contains(.closeInput(slot: 0)), "nothing is queued: it gets nothing more")
        #expect(!machine.received(Self.passing(Self.ids[2]), from: 1).contains(.closeInput(slot: 1)), "closed once")
        let last = machine.received(Self.passing(Self.ids[1]), from: 0)
        #expect(!last.contains(.closeInput(slot: 0)))
        #expect(machine.exited(1, WorkerExit(), progress: nil) == [.clearBoard(slot: 1)])
        let end = machine.exited(0, WorkerExit(), progress: nil)
        #expect(Self.finish(end) == RunSummary(passed: 3))
        #expect(machine.failures.isEmpty)
    }

    /// Several workers are handed two at a time at first, then about 40 ms of work once scenarios prove
    /// short — except with fail-fast, where a failure in one worker must let the others finish only what
    /// they run and hold: two at a time throughout.
    @Test func workersAreHandedMoreOnceScenariosProveShortButTwoAtATimeWithFailFast() {
        let many = (0..<20).map { ScenarioID(file: "Scenarios/a.yml", name: "S\($0)") }
        let template = Self.planned[Self.ids[0]]!
        let plan = RunPlan(
            scenarios: many.map { id in
                var scenario = template
                scenario.id = id
                return scenario
            }
        )
        func handedAfterAShortEnd(failFast: Bool) -> Int {
            var machine = WorkerPoolMachine(.init(jobs: 2))
            _ = machine.start()
            _ = machine.run(.init(plan: plan, failFast: failFast))
            let actions = machine.received(Self.passing(many[0]), from: 0)
            return actions.reduce(0) { count, action in
                guard case .write(slot: 0, let text) = action else { return count }
                return count + text.split(separator: "\n").count
            }
        }
        #expect(handedAfterAShortEnd(failFast: true) == 1, "topped up to two")
        #expect(handedAfterAShortEnd(failFast: false) > 1, "topped up to about 40 ms of 3 ms scenarios")
    }

    /// A crash in the middle of a scenario fails it at the step its board named, with the crash message;
    /// a new worker takes the slot and gets what the dead one had not started.
    @Test func aCrashFailsItsScenarioAtTheRunningStepAndTheSlotIsRefilled() throws {
        var machine = WorkerPoolMachine(.init(jobs: 1))
        _ = machine.start()
        _ = machine.run(Self.request())
        _ = machine.received(Array(Self.passing(Self.ids[0])), from: 0)
        _ = machine.received([.event(.scenarioStarted(Self.ids[1], worker: nil))], from: 0)
        let progress = WorkerProgress(
            scenario: 1,  // the position of ids[1] in the plan
            step: 2,
            phase: .steps,
            earlierPassed: true,
            elapsed: .milliseconds(40)
        )
        let crash = WorkerExit(signal: 6, status: 0, standardErrorTail: "x\nFatal error: boom\n")
        let actions = machine.exited(0, crash, progress: progress)
        let failed = try #require(
            Self.emitted(actions).compactMap { event -> (String, Diagnostics.SourceLocation?)? in
                if case .stepFinished(Self.ids[1], step: 2, phase: .steps, .failed(let reason, let location), _) = event
                {
                    return (reason, location)
                }
                return nil
            }.first
        )
        #expect(failed.0 == "The process running this scenario crashed: Fatal error: boom (signal 6, SIGABRT).")
        #expect(
            failed.1 == Diagnostics.SourceLocation(file: "Scenarios/a.yml", line: 15, column: 9),
            "the running step's line"
        )
        #expect(
            Self.emitted(actions).contains(
                .scenarioFinished(Self.ids[1], outcome: .failed(step: 2, reason: failed.0), duration: .milliseconds(40))
            )
        )
        // Replaced: launched and given the one scenario left (position 2).
        let tail = Array(actions.drop { $0 != .launch(slot: 0) })
        #expect(tail == [.launch(slot: 0), .write(slot: 0, Self.lines(2)), .closeInput(slot: 0)])
        #expect(machine.failures.isEmpty, "a scenario's failure, not the run's")
        _ = machine.received(Self.passing(Self.ids[2]), from: 0)
        #expect(Self.finish(machine.exited(0, WorkerExit(), progress: nil)) == RunSummary(passed: 2, failed: 1))
    }

    /// A worker's end line in the middle of a scenario (a worker that stopped early, or a line forged on
    /// its channel) is no pass: the line itself forwards nothing, and the end it reports (status 0) fails
    /// the running scenario; the run is not green.
    @Test func anEndInTheMiddleOfAScenarioFailsIt() {
        var machine = WorkerPoolMachine(.init(jobs: 1))
        _ = machine.start()
        _ = machine.run(Self.request())
        let started = machine.received([.event(.scenarioStarted(Self.ids[0], worker: nil)), .end(status: 0)], from: 0)
        #expect(Self.emitted(started) == [.scenarioStarted(Self.ids[0], worker: 1)])
        let progress = WorkerProgress(
            scenario: 0,
            step: 1,
            phase: .steps,
            earlierPassed: true,
            elapsed: .milliseconds(5)
        )
        let ended = machine.exited(0, WorkerExit(status: 0), progress: progress)
        let outcome = Self.emitted(ended).compactMap { event -> ScenarioOutcome? in
            if case .scenarioFinished(Self.ids[0], let outcome, _) = event { return outcome }
            return nil
        }.first
        #expect(
            outcome
                == .failed(
                    step: 1,
                    reason: "The process running this scenario exited with status 0 before the scenario finished."
                )
        )
        _ = machine.received(Self.passing(Self.ids[1]) + Self.passing(Self.ids[2]), from: 0)
        #expect(Self.finish(machine.exited(0, WorkerExit(), progress: nil)) == RunSummary(passed: 2, failed: 1))
    }

    /// The watchdog ends a worker whose step holds its thread past its timeout and the grace period, and
    /// the scenario fails saying so — not with the signal the pool sent.
    @Test func aStepThatBlocksItsThreadIsEndedByTheWatchdog() throws {
        var machine = WorkerPoolMachine(.init(jobs: 1, cancellationGrace: .seconds(1)))
        _ = machine.start()
        _ = machine.run(Self.request())
        _ = machine.received([.event(.scenarioStarted(Self.ids[0], worker: nil))], from: 0)
        var progress = WorkerProgress(
            scenario: 0,
            step: 2,
            phase: .steps,
            earlierPassed: true,
            elapsed: .seconds(2),
            stepStart: 1_000,
            stepElapsed: .milliseconds(2_900),
            stepTimeout: .seconds(1)
        )
        #expect(machine.tick(now: 3_000_000_000, progress: [0: progress]) == [], "within timeout + grace + 1 s")
        progress.stepElapsed = .milliseconds(3_100)
        #expect(machine.tick(now: 3_200_000_000, progress: [0: progress]) == [.kill(slot: 0)])
        #expect(machine.tick(now: 3_300_000_000, progress: [0: progress]) == [], "killed once")
        let actions = machine.exited(0, WorkerExit(signal: 9), progress: progress)
        let reasons = Self.emitted(actions).compactMap { event -> String? in
            if case .scenarioFinished(_, .failed(_, let reason), _) = event { reason } else { nil }
        }
        #expect(
            reasons == [
                "Step 'block' blocked its thread for longer than its 1.0 s timeout and the 1.0 s grace period; its process was ended."
            ]
        )
    }

    /// A worker that has reported everything it was given and does not end (a hang in an app's exit,
    /// or in shutting a library down) is ended by the watchdog after ``WorkerPoolMachine/exitTime``: the
    /// run ends with every result as reported, a note says why, and nothing fails.
    @Test func aWorkerThatDoesNotEndAfterItsLastScenarioIsEndedAndNothingFails() {
        var machine = WorkerPoolMachine(.init(jobs: 1))
        _ = machine.start()
        #expect(machine.run(Self.request()).last == .closeInput(slot: 0), "one worker gets everything at once")
        #expect(machine.tick(now: 0, progress: [:]) == [], "scenarios still to run: nothing to end")
        for id in Self.ids.dropLast() { _ = machine.received(Self.passing(id), from: 0) }
        #expect(machine.tick(now: 0, progress: [:]) == [], "one still to run: nothing to end")
        _ = machine.received(Self.passing(Self.ids[2]), from: 0)
        let second: Int64 = 1_000_000_000
        #expect(machine.tick(now: 5 * second, progress: [:]) == [], "seen done: the time starts")
        #expect(machine.tick(now: 14 * second, progress: [:]) == [], "within the exit time")
        #expect(machine.tick(now: 15 * second, progress: [:]) == [.kill(slot: 0)])
        #expect(machine.tick(now: 16 * second, progress: [:]) == [], "killed once")
        let end = machine.exited(0, WorkerExit(signal: 9), progress: nil)
        #expect(
            end.contains(
                .note(
                    "Worker process 1 did not end within 10.0 s of its last scenario and was ended; "
                        + "every scenario it ran is reported."
                )
            )
        )
        #expect(!end.contains { if case .reportError = $0 { true } else { false } })
        #expect(Self.finish(end) == RunSummary(passed: 3))
        #expect(machine.failures.isEmpty, "the run does not fail for it")
    }

    /// A surplus worker (more jobs than scenarios) has no place in the run's schedule: the watchdog's
    /// check for lingering workers passes it by (it once read past the schedule's workers and trapped).
    @Test func theWatchdogPassesSurplusWorkersBy() {
        var machine = WorkerPoolMachine(.init(jobs: 3))
        _ = machine.start()
        let request = WorkerPoolMachine.RunRequest(plan: Self.plan([Self.ids[0]]))
        #expect(machine.run(request).contains(.kill(slot: 2)), "surplus: ended at once")
        #expect(machine.tick(now: 0, progress: [:]) == [])
        #expect(machine.tick(now: 60_000_000_000, progress: [:]) == [], "still loading, or ending")
    }

    /// A worker that cannot start is said once, fails the run, and gets nothing: the others run it all.
    @Test func aWorkerThatCannotStartGetsNothing() {
        var machine = WorkerPoolMachine(.init(jobs: 2))
        _ = machine.start()
        let message = "A worker process could not start: Too many open files (ulimit -n is 40)"
        #expect(machine.launchFailed(1, reason: "Too many open files (ulimit -n is 40)") == [.reportError(message)])
        #expect(machine.launchFailed(1, reason: "again") == [], "said once, for a slot that was launching")
        let actions = machine.run(Self.request())
        #expect(!actions.contains { if case .write(slot: 1, _) = $0 { true } else { false } })
        _ = machine.received(Self.passing(Self.ids[0]), from: 0)
        _ = machine.received(Self.passing(Self.ids[1]), from: 0)
        _ = machine.received(Self.passing(Self.ids[2]), from: 0)
        #expect(Self.finish(machine.exited(0, WorkerExit(), progress: nil)) == RunSummary(passed: 3))
        #expect(machine.failures == [message])
    }

    /// A replacement that cannot start: the scenarios the dead worker had not started are reported
    /// skipped (no one is left to run them), and the run fails in words.
    @Test func aReplacementThatCannotStartLeavesItsScenariosSkipped() {
        var machine = WorkerPoolMachine(.init(jobs: 1))
        _ = machine.start()
        _ = machine.run(Self.request())
        _ = machine.received([.event(.scenarioStarted(Self.ids[0], worker: nil))], from: 0)
        let progress = WorkerProgress(scenario: 0, step: 1, phase: .steps, earlierPassed: true, elapsed: .zero)
        let crashed = machine.exited(0, WorkerExit(signal: 9), progress: progress)
        #expect(
            Array(crashed.drop { $0 != .launch(slot: 0) }) == [
                .launch(slot: 0), .write(slot: 0, Self.lines(1, 2)), .closeInput(slot: 0),
            ],
            "launched, and handed the two scenarios left"
        )
        let failed = machine.launchFailed(0, reason: "No such file or directory")
        #expect(failed.first == .reportError("A worker process could not start: No such file or directory"))
        #expect(
            Self.emitted(failed) == [
                .scenarioFinished(Self.ids[1], outcome: .skipped, duration: .zero),
                .scenarioFinished(Self.ids[2], outcome: .skipped, duration: .zero),
            ]
        )
        #expect(Self.finish(failed) == RunSummary(failed: 1, skipped: 2))
    }

    /// Ctrl-C: inputs closed and every worker asked to end (SIGTERM, so its tear-down runs); what never
    /// ran is skipped and the run says it was cancelled.
    @Test func cancellingEndsEveryWorkerAndSkipsWhatDidNotRun() {
        var machine = WorkerPoolMachine(.init(jobs: 2))
        _ = machine.start()
        _ = machine.run(Self.request())
        _ = machine.received(Self.passing(Self.ids[0]), from: 0)
        let cancel = machine.cancel(now: 1)
        // Every scenario was handed out, so both inputs are closed already.
        #expect(cancel == [.terminate(slot: 0), .terminate(slot: 1)])
        #expect(machine.cancel(now: 2).allSatisfy { if case .terminate = $0 { true } else { false } })
        _ = machine.exited(0, WorkerExit(), progress: nil)
        let end = machine.exited(1, WorkerExit(signal: 15), progress: nil)
        #expect(
            Self.emitted(end) == [
                .scenarioFinished(Self.ids[1], outcome: .skipped, duration: .zero),
                .scenarioFinished(Self.ids[2], outcome: .skipped, duration: .zero),
            ]
        )
        #expect(Self.finish(end) == RunSummary(passed: 1, skipped: 2, cancelled: true))
    }

    /// A signal after the files loaded and before the run began (a found bug: it was forgotten when the run
    /// began, and the run ended with every scenario skipped and exit status 0): the run is cancelled,
    /// nothing is handed out, and the workers asked to end are nobody's failure.
    @Test func aCancelBeforeTheRunBeganCancelsIt() {
        var machine = WorkerPoolMachine(.init(jobs: 2))
        _ = machine.start()
        #expect(machine.cancel(now: 1).contains(.terminate(slot: 0)))
        #expect(machine.exited(0, WorkerExit(signal: 15), progress: nil) == [], "remembered until the run begins")
        let actions = machine.run(Self.request())
        #expect(!actions.contains { if case .write = $0 { true } else { false } }, "nothing handed out: \(actions)")
        let end = machine.exited(1, WorkerExit(status: 1), progress: nil)
        #expect(Self.finish(end) == RunSummary(skipped: 3, cancelled: true))
        #expect(machine.failures.isEmpty, "\(machine.failures)")
    }

    /// A cancel ends its run only: the live runner's next run (its re-run) runs whole.
    @Test func aCancelAfterARunDoesNotCancelTheNext() {
        var machine = WorkerPoolMachine(.init(jobs: 1))
        _ = machine.start()
        _ = machine.run(Self.request())
        _ = machine.cancel(now: 1)
        #expect(Self.finish(machine.exited(0, WorkerExit(signal: 15), progress: nil))?.cancelled == true)
        let next = machine.run(Self.request())
        #expect(next.contains(.write(slot: 0, Self.lines(0, 1, 2))), "\(next)")
        _ = machine.received(Self.passing(Self.ids[0]) + Self.passing(Self.ids[1]) + Self.passing(Self.ids[2]), from: 0)
        #expect(Self.finish(machine.exited(0, WorkerExit(), progress: nil)) == RunSummary(passed: 3))
    }

    /// More workers than scenarios: the extra ones are ended before they run anything, and their ends
    /// are nobody's failure.
    @Test func surplusWorkersAreEndedAndTheirEndsAreNoFailure() {
        var machine = WorkerPoolMachine(.init(jobs: 3))
        _ = machine.start()
        let one = WorkerPoolMachine.RunRequest(plan: Self.plan([Self.ids[0]]))
        let actions = machine.run(one)
        #expect(actions.filter { if case .kill = $0 { true } else { false } } == [.kill(slot: 1), .kill(slot: 2)])
        #expect(machine.exited(1, WorkerExit(signal: 9), progress: nil) == [.clearBoard(slot: 1)])
        #expect(machine.exited(2, WorkerExit(signal: 9), progress: nil) == [.clearBoard(slot: 2)])
        _ = machine.received(Self.passing(Self.ids[0]), from: 0)
        #expect(Self.finish(machine.exited(0, WorkerExit(), progress: nil)) == RunSummary(passed: 1))
        #expect(machine.failures.isEmpty)
    }

    /// A worker that ended while loading (its files would not load) is not replaced — it would only fail
    /// again — and its end fails the run in words; the scenarios are reported skipped.
    @Test func aWorkerThatEndedWhileLoadingFailsTheRunAndIsNotReplaced() {
        var machine = WorkerPoolMachine(.init(jobs: 1))
        _ = machine.start()
        #expect(machine.exited(0, WorkerExit(status: 2), progress: nil) == [.closeInput(slot: 0)])
        let actions = machine.run(Self.request())
        #expect(!actions.contains(.launch(slot: 0)))
        #expect(actions.contains(.reportError("Worker process 1 ended: It exited with status 2.")))
        #expect(Self.finish(actions) == RunSummary(skipped: 3))
    }

    /// The app's output between scenarios is shown unless the live runner owns the terminal.
    @Test func outputBetweenScenariosIsShownOnlyWhenForwarded() {
        for forward in [true, false] {
            var machine = WorkerPoolMachine(.init(jobs: 1, forwardOutput: forward))
            _ = machine.start()
            _ = machine.run(Self.request())
            #expect(machine.received([.output("hello")], from: 0) == (forward ? [.output("hello")] : []))
        }
    }
}
