import Synchronization
import TestSupport
import Testing

@testable import Scenarios

/// A wait ends at a change, at its timeout, or when cancelled; a wait with a condition (what the waiting
/// step said its answer waits for) sleeps through changes that leave the condition false.
struct ChangeSignalTests {
    let clock = TestClock()

    @Test func aConditionedWaitSleepsThroughChangesThatLeaveItFalse() async {
        let timer = DeadlineTimer(clock: clock)
        defer { timer.shutDown() }
        let signal = ChangeSignal()
        let open = Mutex(false)
        let woken = Recorder<String>()
        let generation = signal.generation
        let waiting = Task {
            await signal.wait(after: generation, until: { open.withLock { $0 } }, timeout: .seconds(60), timer: timer)
            woken.append("woken")
        }
        #expect(await eventually { signal.sleepingCount == 1 })
        signal.signal()
        signal.signal()
        // A signal reads the condition before it returns: still false, the wait sleeps on.
        #expect(signal.sleepingCount == 1)
        #expect(woken.all.isEmpty)
        open.withLock { $0 = true }
        signal.signal()
        #expect(signal.sleepingCount == 0)
        await waiting.value
        #expect(woken.all == ["woken"])
    }

    @Test func aWaitWithoutConditionEndsAtAnyChange() async {
        let timer = DeadlineTimer(clock: clock)
        defer { timer.shutDown() }
        let signal = ChangeSignal()
        let generation = signal.generation
        let waiting = Task { await signal.wait(after: generation, timeout: .seconds(60), timer: timer) }
        #expect(await eventually { signal.sleepingCount == 1 })
        signal.signal()
        #expect(signal.sleepingCount == 0)
        await waiting.value
    }

    /// The condition may come true with its change signalled before the wait is registered: read once the
    /// wait is there, it ends it.
    @Test func aConditionThatAlreadyHoldsEndsTheWaitAtOnce() async {
        let timer = DeadlineTimer(clock: clock)
        defer { timer.shutDown() }
        let signal = ChangeSignal()
        let generation = signal.generation
        signal.signal()
        await signal.wait(after: generation, until: { true }, timeout: .seconds(60), timer: timer)
        #expect(signal.sleepingCount == 0)
    }

    @Test func aConditionThatNeverHoldsStillEndsAtTheTimeout() async {
        let timer = DeadlineTimer(clock: clock)
        defer { timer.shutDown() }
        let signal = ChangeSignal()
        let generation = signal.generation
        let waiting = Task {
            await signal.wait(after: generation, until: { false }, timeout: .seconds(1), timer: timer)
        }
        #expect(await eventually { signal.sleepingCount == 1 })
        signal.signal()
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await waiting.value
        #expect(signal.sleepingCount == 0)
    }

    @Test func cancellingEndsAConditionedWait() async {
        let timer = DeadlineTimer(clock: clock)
        defer { timer.shutDown() }
        let signal = ChangeSignal()
        let generation = signal.generation
        let waiting = Task {
            await signal.wait(after: generation, until: { false }, timeout: .seconds(60), timer: timer)
        }
        #expect(await eventually { signal.sleepingCount == 1 })
        waiting.cancel()
        await waiting.value
        #expect(signal.sleepingCount == 0)
    }

    /// A step that says what its wait waits for (``ScenarioContext/retry(when:)``) is not retried at the
    /// changes that leave it false, only at the one after which it holds: two attempts, however many changes.
    @Test func aWaitingStepIsRetriedOnceWhatItWaitsForHolds() async throws {
        let attempts = Recorder<Int>()
        let open = Mutex(false)
        let contexts = Recorder<ScenarioContext>()
        let scenario = RunHarness.scenario(
            "Gated",
            [
                RunHarness.step("expect the work to end", line: 3) { context in
                    contexts.append(context)
                    attempts.append(attempts.all.count + 1)
                    if open.withLock({ $0 }) { return .success }
                    context.retry { open.withLock { $0 } }
                    return .wait("Work still running")
                }
            ]
        )
        let harness = RunHarness()
        let runner = try harness.runner { $0.retryInterval = .seconds(5) }
        let events = await harness.run(runner, [scenario], advancing: false) { event in
            guard case .stepWaiting = event, let context = contexts.all.first else { return }
            _ = await eventually { context.changes.sleepingCount == 1 }
            for _ in 1...3 { context.signalChange() }
            // Sleeping again: at once when the changes left it asleep, after a retry when one woke it.
            _ = await eventually { context.changes.sleepingCount == 1 }
            open.withLock { $0 = true }
            context.signalChange()
        }
        #expect(events.stepOutcomes == [.passed, .passed, .passed])
        #expect(attempts.all == [1, 2])
        #expect(harness.clock.now.offset == .zero, "retried at the change, not at the pause's end")
    }
}
