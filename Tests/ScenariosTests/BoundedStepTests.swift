import Diagnostics
import Foundation
import Scenarios
import Synchronization
import TestSupport
import Testing

/// Every step is bounded by its timeout, actions included: one still running then fails, tear-down runs
/// and the run goes on; one that also ignores cancellation is left behind (or its process ended).
struct BoundedStepTests {
    let harness = RunHarness()
    typealias H = RunHarness

    /// A wait that nothing but ``open()`` ends: it ignores cancellation.
    final class Gate: Sendable {
        private let waiters = Mutex<(open: Bool, continuations: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = waiters.withLock { state -> Bool in
                    if state.open { return true }
                    state.continuations.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let continuations = waiters.withLock { state in
                state.open = true
                defer { state.continuations = [] }
                return state.continuations
            }
            for continuation in continuations { continuation.resume() }
        }
    }

    /// Runs `scenarios` in a task and moves the clock by each of `steps` once something sleeps until
    /// then (``advance(_:)``).
    func run(_ runner: ScenarioRunner, _ scenarios: [Scenario], advancing steps: [Duration]) async -> [RunEvent] {
        let events = Recorder<RunEvent>()
        let finished = Mutex(false)
        let task = Task {
            await runner.run(scenarios) { events.append($0) }
            finished.withLock { $0 = true }
        }
        for step in steps { await advance(step) }
        await finish(task, finished)
        return events.all
    }

    /// Waits for the run to end, moving the clock a second whenever something sleeps until then (under
    /// load a stray action's cancellation can still be waiting out a grace period); bounded, so that a
    /// run that never ends fails the test instead of holding the whole test process for ever.
    func finish(_ task: Task<Void, Never>, _ finished: borrowing Mutex<Bool>) async {
        let clock = harness.clock
        let ended = await eventually {
            if finished.withLock({ $0 }) { return true }
            if clock.hasSleeper(dueBy: clock.now.advanced(by: .seconds(1))) { clock.advance(by: .seconds(1)) }
            return false
        }
        #expect(ended, "the run did not end")
        if ended { await task.value }
    }

    /// Moves the clock by `step` once a task sleeps until then: not merely once anything sleeps, since a
    /// timer sleeping until a later deadline (the scenario's) would let the clock move before the timer
    /// it means to wake is armed — which then sleeps for ever (seen in two full runs, under load).
    func advance(_ step: Duration) async {
        let clock = harness.clock
        let armed = await eventually { clock.hasSleeper(dueBy: clock.now.advanced(by: step)) }
        #expect(armed, "nothing sleeps until \(step) from now")
        clock.advance(by: step)
    }

    @Test func anActionStillRunningAtItsTimeoutFailsAndTearDownRuns() async throws {
        let clock = harness.clock
        let scenarios = [
            H.scenario(
                "Slow",
                [
                    H.step("take an hour", line: 4) { _ in
                        try await clock.sleep(for: .seconds(3600))
                        return .success
                    }
                ]
            ),
            H.scenario("Next", [Step.succeed("ok")]),
        ]
        let runner = try harness.runner()
        // Only the step timeout's deadline (1 s) is a timer sleeper; the action's own sleep is the other.
        let events = Recorder<RunEvent>()
        let task = Task { await runner.run(scenarios) { events.append($0) } }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        let summary = await task.value
        #expect(
            events.all.scenarioOutcomes == [
                .failed(step: 1, reason: "Did not finish within 1.0 s."),
                .passed,
            ]
        )
        #expect(harness.calls.all == ["set up", "tear down", "set up", "tear down"])
        #expect(summary.failed == 1 && summary.passed == 1)
    }

    @Test func anActionIgnoringCancellationIsLeftBehindAndTheRunGoesOn() async throws {
        let gate = Gate()
        defer { gate.open() }
        let scenarios = [
            H.scenario(
                "Stuck",
                [
                    H.step("never return", line: 4) { _ in
                        await gate.wait()
                        return .success
                    }
                ]
            ),
            H.scenario("Next", [Step.succeed("ok")]),
        ]
        let runner = try harness.runner()
        // The timeout (1 s), then the grace after cancelling (1 s).
        let events = await run(runner, scenarios, advancing: [.seconds(1), .seconds(1)])
        #expect(
            events.scenarioOutcomes == [
                .failed(step: 1, reason: "Did not finish within 1.0 s and ignored cancellation."),
                .passed,
            ]
        )
        #expect(harness.calls.all == ["set up", "tear down", "set up", "tear down"])
    }

    @Test func withAnAbandonHookTheScenarioIsReportedThenTheHookRunsAndNothingElse() async throws {
        let gate = Gate()
        defer { gate.open() }
        let hookCalls = Recorder<Int>()
        let events = Recorder<RunEvent>()
        let runner = try ScenarioRunner(
            registry: harness.registry,
            settings: harness.settings,
            clock: harness.clock,
            environment: [:],
            onAbandonedStep: {
                // What a worker does here is end its process; the events so far must all be out.
                hookCalls.append(events.all.count)
            }
        )
        let scenario = H.scenario(
            "Stuck",
            [
                H.step("never return", line: 4) { _ in
                    await gate.wait()
                    return .success
                }
            ]
        )
        let finished = Mutex(false)
        let task = Task {
            await runner.run([scenario]) { events.append($0) }
            finished.withLock { $0 = true }
        }
        // The step's timeout, then the grace after cancelling.
        for _ in 0..<2 { await advance(.seconds(1)) }
        await finish(task, finished)
        let all = events.all
        #expect(
            all.scenarioOutcomes == [
                .failed(step: 1, reason: "Did not finish within 1.0 s and ignored cancellation. Its process was ended.")
            ]
        )
        // Tear-down would race the stray action: it is reported skipped, not run.
        #expect(harness.calls.all == ["set up"])
        #expect(all.stepOutcomes.last == .skipped)
        let finishedAt = all.firstIndex { if case .scenarioFinished = $0 { return true } else { return false } }
        #expect(hookCalls.all == [finishedAt.map { $0 + 1 } ?? -1])
    }

    @Test func anActionEndingInTimeLeavesNoTimerBehind() async throws {
        // Many quick steps: each schedules its timeout and cancels it; the run ends without the clock moving.
        let steps = (0..<200).map { index in H.step("quick \(index)", line: index + 2) { _ in .success } }
        let events = await harness.run(try harness.runner(), [H.scenario("Quick", steps)])
        #expect(events.scenarioOutcomes == [.passed])
        #expect(harness.clock.now.offset == .zero)
    }
}
