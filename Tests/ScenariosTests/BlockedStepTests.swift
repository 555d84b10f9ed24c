import Diagnostics
import Scenarios
import TestSupport
import Testing

/// A step that holds its thread cannot be ended by its timeout (the timer runs on that thread): it is
/// judged when it returns, and one that returns after its timeout fails with how long it took, on every
/// path — set-up, steps, tear-down, and a waiting step's retries. The clock is moved by the action
/// itself, as a blocking call would let time pass, without ever awaiting.
struct BlockedStepTests {
    let harness = RunHarness()
    typealias H = RunHarness

    /// A step that lets `seconds` pass while it holds its thread, then answers `result`.
    func blocking(_ name: String, line: Int, seconds: Int64, result: StepResult = .success) -> Step {
        let clock = harness.clock
        return H.step(name, line: line) { _ in
            clock.advance(by: .seconds(seconds))
            return result
        }.returningPromptly()
    }

    func reason(_ name: String, took: String) -> String {
        "Step '\(name)' took \(took) s, past its 1.0 s timeout; it blocked its thread, so the timeout could not end it."
    }

    @Test func aStepThatReturnsAfterItsTimeoutFailsOnEveryPath() async throws {
        var inSetUp = H.scenario("Set-up blocks", [Step.succeed("ok")])
        inSetUp.setUp = [blocking("block in set-up", line: 2, seconds: 30)]
        let inSteps = H.scenario("Step blocks", [blocking("block", line: 4, seconds: 30)])
        var inTearDown = H.scenario("Tear-down blocks", [Step.succeed("ok")])
        inTearDown.tearDown = [blocking("block in tear-down", line: 8, seconds: 30)]
        let runner = try harness.runner()
        let events = await harness.run(runner, [inSetUp, inSteps, inTearDown])
        #expect(
            events.scenarioOutcomes == [
                .failed(step: 1, reason: reason("block in set-up", took: "30.0")),
                .failed(step: 1, reason: reason("block", took: "30.0")),
                .failed(step: 2, reason: reason("block in tear-down", took: "30.0")),
            ]
        )
        let located = events.stepOutcomes.compactMap { outcome -> Int? in
            if case .failed(_, let location?) = outcome { return location.line }
            return nil
        }
        #expect(located == [2, 4, 8], "each failure is at its step's line")
        #expect(events.summary?.failed == 3)
    }

    @Test func aWaitingStepWhoseRetryBlocksPastItsTimeoutFails() async throws {
        let clock = harness.clock
        let tries = Counter()
        let step = H.step("wait, then block", line: 3) { _ in
            tries.increment()
            if tries.value == 1 { return .wait("not yet") }
            clock.advance(by: .seconds(5))
            return .success
        }.returningPromptly()
        let runner = try harness.runner()
        let events = await harness.run(runner, [H.scenario("Retry blocks", [step])])
        // The retry began 0.25 s in (the retry interval) and returned 5 s later.
        #expect(events.scenarioOutcomes == [.failed(step: 1, reason: reason("wait, then block", took: "5.25"))])
    }

    /// The look taken once the timeout is reached, at the end of a wait, still passes when it is prompt.
    @Test func aPromptLastLookAtTheTimeoutStillPasses() async throws {
        let tries = Counter()
        let step = H.step("wait until the last look", line: 3) { _ in
            tries.increment()
            return tries.value < 5 ? .wait("not yet") : .success
        }.returningPromptly()
        let runner = try harness.runner()
        let events = await harness.run(runner, [H.scenario("Last look", [step])])
        #expect(tries.value == 5, "four retries 0.25 s apart: the fifth look is at the 1 s timeout")
        #expect(events.scenarioOutcomes == [.passed])
    }

    @Test func aStepThatReturnsWithinItsTimeoutPasses() async throws {
        let runner = try harness.runner()
        let events = await harness.run(
            runner,
            [H.scenario("Quick enough", [blocking("almost", line: 3, seconds: 0)])]
        )
        #expect(events.scenarioOutcomes == [.passed])
    }
}
