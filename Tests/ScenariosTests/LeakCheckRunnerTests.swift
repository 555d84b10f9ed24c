import Diagnostics
import Scenarios
import TestSupport
import Testing

/// `check for leaks` in the runner: after tear-down, failing, warning, off, skipped with tear-down.
struct LeakCheckRunnerTests {
    typealias H = RunHarness
    let harness = RunHarness()

    /// A check that records that it ran and finds `leaks`.
    func check(_ leaks: [String]) -> @Sendable (ScenarioContext) async throws -> [String] {
        let calls = harness.calls
        return { _ in
            calls.append("check")
            return leaks
        }
    }

    @Test func theCheckRunsLastAfterTearDownAndIsInThePlan() async throws {
        let runner = try harness.runner(leakCheck: check([]))
        let scenario = H.scenario("A", [Step.succeed("ok")])
        let steps = runner.plan([scenario]).scenarios[0].steps
        #expect(
            steps.map(\.description) == [
                "set up the test environment", "succeed: ok", "tear down the test environment", "check for leaks",
            ]
        )
        #expect(steps.map(\.phase) == [.setUp, .steps, .tearDown, .leakCheck])
        let events = await harness.run(runner, [scenario])
        #expect(events.stepOutcomes == [.passed, .passed, .passed, .passed])
        #expect(events.scenarioOutcomes == [.passed])
        #expect(harness.calls.all == ["set up", "tear down", "check"])
    }

    @Test func leaksFailTheScenarioWithEveryLeakInTheReason() async throws {
        let runner = try harness.runner(leakCheck: check(["3 Review rows", "route Review POST still points to /422"]))
        let events = await harness.run(runner, [H.scenario("A", [Step.succeed("ok")])])
        let reason = "3 Review rows; route Review POST still points to /422"
        #expect(events.stepOutcomes == [.passed, .passed, .passed, .failed(reason: reason, location: nil)])
        #expect(events.scenarioOutcomes == [.failed(step: 3, reason: reason)])
    }

    @Test func theCheckRunsAfterAFailureAndTheFirstFailureIsTheScenarios() async throws {
        let runner = try harness.runner(leakCheck: check(["1 Review row"]))
        let events = await harness.run(runner, [H.scenario("A", [Step.fail("Boom")])])
        #expect(events.stepOutcomes.last == .failed(reason: "1 Review row", location: nil))
        #expect(events.scenarioOutcomes == [.failed(step: 1, reason: "Boom")])
    }

    @Test func warnReportsTheLeaksAndPasses() async throws {
        let runner = try harness.runner({ $0.leaks = .warn }, leakCheck: check(["1 Review row"]))
        let events = await harness.run(runner, [H.scenario("A", [Step.succeed("ok")])])
        #expect(events.stepOutcomes == [.passed, .passed, .passed, .warned(reason: "1 Review row")])
        #expect(events.scenarioOutcomes == [.passed])
        #expect(events.summary?.line == "1 passed, 0 failed")
    }

    @Test func underWarnACheckThatThrowsIsAWarningToo() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "No database." } }
        let runner = try harness.runner({ $0.leaks = .warn }, leakCheck: { _ in throw Broken() })
        let events = await harness.run(runner, [H.scenario("A", [Step.succeed("ok")])])
        #expect(events.stepOutcomes.last == .warned(reason: "No database."))
        #expect(events.scenarioOutcomes == [.passed])
    }

    @Test func aStepCheckFailsAPassedStepAtTheStepThatSentTheRequest() async throws {
        // The check fails the third step it sees (the scenario's second), blaming the first of the scenario.
        let seen = Counter()
        let runner = try ScenarioRunner(
            registry: harness.registry,
            settings: harness.settings,
            clock: harness.clock,
            environment: [:],
            stepCheck: { _ in
                seen.increment()
                return seen.value == 3 ? StepCheckFailure(reason: "GET /x breaks the document", sender: 1) : nil
            }
        )
        let scenario = H.scenario(
            "A",
            [H.step("send", line: 4) { _ in .success }, H.step("look", line: 5) { _ in .success }]
        )
        let events = await harness.run(runner, [scenario])
        let reason = "GET /x breaks the document; it was sent by the step 'send'"
        let sender = SourceLocation(file: "s.yml", line: 4, column: 9)
        #expect(events.stepOutcomes == [.passed, .passed, .failed(reason: reason, location: sender), .passed])
        #expect(events.scenarioOutcomes == [.failed(step: 2, reason: reason)])

        // Blamed on the step itself: its own location, no sender named.
        #expect(
            ScenarioRunner.failed(
                StepCheckFailure(reason: "bad", sender: 2),
                at: 2,
                step: scenario.steps[1],
                all: ScenarioSteps()
            )
                == .failed(reason: "bad", location: SourceLocation(file: "s.yml", line: 5, column: 9))
        )
    }

    @Test func offLeavesTheStepOutOfThePlan() async throws {
        let runner = try harness.runner({ $0.leaks = .off }, leakCheck: check(["1 Review row"]))
        let scenario = H.scenario("A", [Step.succeed("ok")])
        #expect(runner.plan([scenario]).scenarios[0].steps.map(\.phase) == [.setUp, .steps, .tearDown])
        let events = await harness.run(runner, [scenario])
        #expect(events.scenarioOutcomes == [.passed])
        #expect(harness.calls.all == ["set up", "tear down"])
    }

    @Test func nothingIsCheckedWhileTearDownIsSkipped() async throws {
        let runner = try harness.runner(
            { $0 = $0.applying(environment: ["KIF_SKIP_TEAR_DOWN": "1"]) },
            leakCheck: check(["1 Review row"])
        )
        let events = await harness.run(runner, [H.scenario("A", [Step.succeed("ok")])])
        #expect(events.stepOutcomes == [.passed, .passed, .skipped, .skipped])
        #expect(events.scenarioOutcomes == [.passed])
        #expect(harness.calls.all == ["set up"])
    }

    @Test func aCancelledRunStillChecksTheScenarioItTearsDown() async throws {
        let runner = try harness.runner(leakCheck: check([]))
        let scenario = H.scenario(
            "A",
            [
                Step("cancel") { _ in
                    runner.cancel()
                    return .success
                }
            ]
        )
        let events = await harness.run(runner, [scenario, H.scenario("B", [Step.succeed("ok")])])
        #expect(events.scenarioOutcomes == [.passed, .skipped])
        #expect(harness.calls.all == ["set up", "tear down", "check"])
    }
}
