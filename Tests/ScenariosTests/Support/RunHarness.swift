import Diagnostics
import Foundation
import Scenarios
import TestSupport

/// Builds runners on a ``TestClock`` and collects their events.
struct RunHarness {
    let clock = TestClock()
    let calls = Recorder<String>()

    var settings: RunSettings = {
        var settings = RunSettings()
        settings.stepTimeout = .seconds(1)
        settings.retryInterval = .milliseconds(250)
        return settings
    }()

    /// A registry with default set-up / tear-down steps that record their calls.
    var registry: StepRegistry {
        var builder = StepRegistry.Builder()
        let calls = self.calls
        try? builder.register(
            StepDefinition("set up the test environment", summary: "") { _, _ in
                Step("set up the test environment") { _ in
                    calls.append("set up")
                    return .success
                }
            }
        )
        try? builder.register(
            StepDefinition("tear down the test environment", summary: "") { _, _ in
                Step("tear down the test environment") { _ in
                    calls.append("tear down")
                    return .success
                }
            }
        )
        return builder.build()
    }

    func runner(
        _ configure: (inout RunSettings) -> Void = { _ in },
        leakCheck: (@Sendable (ScenarioContext) async throws -> [String])? = nil,
        sentRequests: (@Sendable (ScenarioContext) -> [SentRequest])? = nil,
        prepare: @escaping @Sendable (ScenarioContext) async -> Void = { _ in }
    ) throws -> ScenarioRunner {
        var settings = self.settings
        configure(&settings)
        return try ScenarioRunner(
            registry: registry,
            settings: settings,
            clock: clock,
            environment: [:],
            leakCheck: leakCheck,
            sentRequests: sentRequests,
            prepare: prepare
        )
    }

    /// Runs to the end; on every *wait* the clock is advanced by the retry interval once the runner sleeps.
    func run(
        _ runner: ScenarioRunner,
        _ scenarios: [Scenario],
        advancing: Bool = true,
        onEvent: (RunEvent) async -> Void = { _ in }
    ) async -> [RunEvent] {
        var events: [RunEvent] = []
        for await event in runner.events(running: scenarios) {
            events.append(event)
            await onEvent(event)
            if advancing, case .stepWaiting = event {
                await clock.waitForSleepers()
                clock.advance(by: runner.settings.retryInterval)
            }
        }
        return events
    }

    static func scenario(_ name: String, file: String = "s.yml", line: Int = 1, _ steps: [Step]) -> Scenario {
        Scenario(
            name: name,
            location: SourceLocation(file: file, line: line, column: 5),
            feature: "Feature",
            file: file,
            steps: steps
        )
    }

    static func step(
        _ name: String,
        line: Int,
        _ action: @escaping @Sendable (ScenarioContext) async throws -> StepResult
    )
        -> Step
    {
        Step(name, location: SourceLocation(file: "s.yml", line: line, column: 9), action: action)
    }
}

extension [RunEvent] {
    /// The outcomes of `stepFinished` events, in order.
    var stepOutcomes: [StepOutcome] {
        compactMap {
            if case .stepFinished(_, _, _, let outcome, _) = $0 { return outcome }
            return nil
        }
    }

    var scenarioOutcomes: [ScenarioOutcome] {
        compactMap {
            if case .scenarioFinished(_, let outcome, _) = $0 { return outcome }
            return nil
        }
    }

    var summary: RunSummary? {
        for case .runFinished(let summary) in self { return summary }
        return nil
    }
}
