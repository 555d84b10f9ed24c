import Diagnostics
import Foundation
import Scenarios
import TestSupport
import Testing

/// `--repeat N` runs each scenario N times in a row; `--retries N` re-runs a failing one; a scenario
/// that passes on a retry is flaky — passed, with its failed tries in the events for the reporters.
struct RepeatAndRetryTests {
    let harness = RunHarness()
    typealias H = RunHarness

    /// A step that fails its first `times` calls.
    static func failing(times: Int, line: Int = 2) -> (Step, Counter) {
        let calls = Counter()
        let step = H.step("flaky", line: line) { _ in
            calls.increment()
            let call = calls.value
            return call <= times ? .failure("Call \(call) fails") : .success
        }
        return (step, calls)
    }

    func tries(_ events: [RunEvent]) -> [ScenarioOutcome] {
        events.compactMap { event in
            switch event {
            case .attemptFinished(_, _, let outcome, _): outcome
            case .scenarioFinished(_, let outcome, _): outcome
            default: nil
            }
        }
    }

    @Test func aRetryThatPassesMakesTheScenarioPassWithItsFailedTriesReported() async throws {
        let (step, calls) = Self.failing(times: 2)
        let runner = try harness.runner { $0.retries = 3 }
        let events = await harness.run(runner, [H.scenario("Flaky", [step])])
        #expect(calls.value == 3)
        #expect(
            tries(events) == [
                .failed(step: 1, reason: "Call 1 fails"), .failed(step: 1, reason: "Call 2 fails"), .passed,
            ]
        )
        let attempts = events.compactMap { event -> Int? in
            if case .attemptFinished(_, let attempt, _, _) = event { return attempt }
            return nil
        }
        #expect(attempts == [1, 2])
        #expect(events.count { if case .scenarioStarted = $0 { true } else { false } } == 3, "every try starts again")
        #expect(
            harness.calls.all == Array(repeating: ["set up", "tear down"], count: 3).flatMap { $0 },
            "every try is set up and torn down"
        )
        #expect(events.summary?.passed == 1 && events.summary?.failed == 0)
    }

    @Test func retriesRunOutAndTheScenarioFails() async throws {
        let (step, calls) = Self.failing(times: 10)
        let events = await harness.run(try harness.runner { $0.retries = 2 }, [H.scenario("Broken", [step])])
        #expect(calls.value == 3)
        #expect(events.scenarioOutcomes == [.failed(step: 1, reason: "Call 3 fails")])
    }

    @Test func repeatRunsEveryScenarioInARowAndAnyFailingRepetitionFailsIt() async throws {
        let (steady, steadyCalls) = Self.failing(times: 0)
        let (second, secondCalls) = Self.failing(times: 0)
        // The second scenario fails its second repetition.
        let failsOnce = H.step("fails the second time", line: 3) { _ in
            secondCalls.value == 2 ? .failure("Second run fails") : .success
        }
        let events = await harness.run(
            try harness.runner { $0.repetitions = 3 },
            [H.scenario("Steady", [steady]), H.scenario("Second fails", [second, failsOnce])]
        )
        #expect(steadyCalls.value == 3)
        #expect(secondCalls.value == 2, "the failing repetition ends the scenario")
        #expect(events.scenarioOutcomes == [.passed, .failed(step: 2, reason: "Second run fails")])
    }

    @Test func repeatWithRetriesRetriesTheFailingRepetition() async throws {
        let (step, calls) = Self.failing(times: 1)
        let events = await harness.run(
            try harness.runner {
                $0.repetitions = 2; $0.retries = 1
            },
            [H.scenario("A", [step])]
        )
        // Try 1 fails, try 2 (its retry) passes, try 3 is the second repetition.
        #expect(calls.value == 3)
        #expect(tries(events) == [.failed(step: 1, reason: "Call 1 fails"), .passed, .passed])
    }

    @Test func reportersNameTheFlakyScenarioAndWriteSurefireReruns() async throws {
        let (flaky, _) = Self.failing(times: 1)
        let (broken, _) = Self.failing(times: 9)
        let events = await harness.run(
            try harness.runner { $0.retries = 1 },
            [H.scenario("Flaky", [flaky]), H.scenario("Broken", [broken])]
        )
        let text = Recorder<String>()
        let plain = PlainReporter { text.append($0) }
        let junit = JUnitReporter()
        for event in events {
            plain.handle(event)
            junit.handle(event)
        }
        let output = text.all.joined()
        #expect(output.contains("✓ Flaky (0.000 s, 2 tries)\n"))
        #expect(output.contains("✗ Broken (0.000 s, 2 tries)\n"))
        #expect(output.hasSuffix("\nFLAKY 1/2 Flaky\n1 passed, 1 failed\n"), "\(output)")
        let xml = junit.xml()
        #expect(xml.contains(#"<flakyFailure message="Call 1 fails">flaky at s.yml:2</flakyFailure>"#), "\(xml)")
        #expect(xml.contains(#"<failure message="Call 2 fails">flaky at s.yml:2</failure>"#))
        #expect(xml.contains(#"<rerunFailure message="Call 1 fails">flaky at s.yml:2</rerunFailure>"#))
        #expect(xml.contains(#"tests="2" failures="1""#), "a flaky scenario counts as passed")
    }
}
