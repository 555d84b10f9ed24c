import Diagnostics
import Scenarios
import TUIRunner

/// Measures what one frame of the TUI costs on a large run: reduce an event, render the whole
/// screen into a cell buffer, and diff it against the previous frame (what the backend would write).
///
/// ```swift
/// let perFrame = FrameBenchmark.measureFrame(scenarios: 10_000, frames: 200)
/// print("\(perFrame) per frame")
/// ```
enum FrameBenchmark {
    /// The mean time per frame over `frames` frames of a `scenarios`-scenario run at 200×60,
    /// while the run progresses (one step event per frame).
    static func measureFrame(scenarios: Int, frames: Int, width: Int = 200, height: Int = 60) -> Duration {
        var state = TUIState()
        let plan = Self.plan(scenarios: scenarios)
        state.apply(.runStarted(plan))
        // Half the run is done, a few failures among it.
        for (index, scenario) in plan.scenarios.prefix(scenarios / 2).enumerated() {
            let outcome: ScenarioOutcome = index % 50 == 7 ? .failed(step: 2, reason: "Expected 201, got 422") : .passed
            state.apply(.scenarioFinished(scenario.id, outcome: outcome, duration: .milliseconds(12)))
        }
        let renderer = Renderer()
        var previous = renderer.render(state, width: width, height: height)
        var written = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for frame in 0..<max(1, frames) {
                let scenario = plan.scenarios[(scenarios / 2 + frame / 4) % max(1, scenarios)]
                switch frame % 4 {
                case 0: state.apply(.scenarioStarted(scenario.id))
                case 1: state.apply(.stepStarted(scenario.id, step: 0, phase: .setUp))
                case 2:
                    state.apply(
                        .stepFinished(scenario.id, step: 0, phase: .setUp, outcome: .passed, duration: .milliseconds(3))
                    )
                default:
                    state.apply(.scenarioFinished(scenario.id, outcome: .passed, duration: .milliseconds(9)))
                }
                state.now = .milliseconds(frame * 33)
                let next = renderer.render(state, width: width, height: height)
                written &+= next.changes(since: previous).count
                previous = next
            }
        }
        blackHole(written)
        return elapsed / max(1, frames)
    }

    static func plan(scenarios: Int, stepsPerScenario: Int = 6) -> RunPlan {
        RunPlan(
            scenarios: (0..<scenarios).map { index in
                let file = "Scenarios/feature-\(index / 100).yml"
                return RunPlan.PlannedScenario(
                    id: ScenarioID(file: file, name: "Scenario number \(index) does something useful"),
                    feature: "Feature \(index / 100)",
                    tags: [],
                    location: SourceLocation(file: file, line: 3 + index % 100, column: 5),
                    steps: RunPlan.PlannedSteps(
                        (0..<stepsPerScenario).map { step in
                            RunPlan.PlannedStep(
                                description: step == 0 ? "set up the test environment" : "step \(step)",
                                phase: step == 0 ? .setUp : step == stepsPerScenario - 1 ? .tearDown : .steps,
                                location: nil
                            )
                        }
                    )
                )
            }
        )
    }

    @inline(never)
    private static func blackHole(_ value: Int) {
        if value == -1 { print(value) }
    }
}
