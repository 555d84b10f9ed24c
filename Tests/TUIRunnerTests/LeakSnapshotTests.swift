import Scenarios
import Testing

@testable import TUIRunner

/// A scenario that leaked: ✗ in the tree when the leak failed it (a failure is a failure), a yellow ⚠
/// under `leaks: warn`, and its leaks one to a line in the detail pane.
struct LeakSnapshotTests {
    let renderer = Renderer(glyphs: .unicode, theme: .colour)
    static let leaks = "3 Review rows; route Review POST still points to /422; queue still suspended"

    /// The demo plan with `check for leaks` after every tear-down.
    static func plan() -> RunPlan {
        var plan = Fixtures.plan()
        for index in plan.scenarios.indices {
            plan.scenarios[index].steps = RunPlan.PlannedSteps(
                plan.scenarios[index].steps + [.init(description: "check for leaks", phase: .leakCheck, location: nil)]
            )
        }
        return plan
    }

    /// A scenario whose steps pass and whose leak check ends with `outcome`.
    static func run(_ id: ScenarioID, leakCheck outcome: StepOutcome) -> [RunEvent] {
        var events: [RunEvent] = [.scenarioStarted(id)]
        for (index, phase) in [StepPhase.setUp, .steps, .steps, .tearDown, .leakCheck].enumerated() {
            events.append(.stepStarted(id, step: index, phase: phase))
            let result = phase == .leakCheck ? outcome : .passed
            events.append(.stepFinished(id, step: index, phase: phase, outcome: result, duration: .milliseconds(1)))
        }
        let scenario: ScenarioOutcome =
            if case .failed(let reason, _) = outcome { .failed(step: 4, reason: reason) } else { .passed }
        events.append(.scenarioFinished(id, outcome: scenario, duration: .milliseconds(12)))
        return events
    }

    /// `rejected` leaks and fails, `offline` leaks under `leaks: warn`, the rest are clean.
    static func state() -> TUIState {
        var events: [RunEvent] = [.runStarted(plan())]
        for id in Fixtures.ids {
            switch id {
            case Fixtures.rejected: events += run(id, leakCheck: .failed(reason: leaks, location: nil))
            case Fixtures.offline: events += run(id, leakCheck: .warned(reason: "1 cached response"))
            default: events += run(id, leakCheck: .passed)
            }
        }
        events.append(.runFinished(RunSummary(passed: 4, failed: 1, duration: .milliseconds(60))))
        return Fixtures.state(events)
    }

    @Test func theStateKnowsWhichScenariosLeakedAndWhat() {
        let state = Self.state()
        #expect(state.scenarios[Fixtures.rejected]?.leakStep == 4)
        #expect(
            state.scenarios[Fixtures.rejected]?.leaks == [
                "3 Review rows", "route Review POST still points to /422", "queue still suspended",
            ]
        )
        #expect(state.scenarios[Fixtures.offline]?.status == .passed)
        #expect(state.scenarios[Fixtures.offline]?.leaks == ["1 cached response"])
        #expect(state.scenarios[Fixtures.offline]?.steps[4].status == .warned)
        #expect(state.scenarios[Fixtures.posting]?.leakStep == nil)
        #expect(state.counts.failed == 1)
    }

    @Test func aLeakThatFailedIsAFailureWithItsLeaksListed() throws {
        var state = Self.state()
        _ = state.handle(.home)
        _ = state.handle(.down)
        _ = state.handle(.down)
        let frame = renderer.render(state, width: 100, height: 30)
        try assertSnapshot(frame, named: "leak-failed-detail")
        let signs = frame.cells.filter { $0.character == "⚠" }
        #expect(!signs.contains { $0.style.colour == .red }, "a failed scenario is ✗, not the leak mark")
        #expect(signs.contains { $0.style.colour == .yellow })
        #expect(frame.text.contains("│  ✗ Posting a review that the server"), "\(frame.text)")
        #expect(frame.text.contains("• route Review POST still points to /422"))
    }

    @Test func aLeakUnderWarnPassesWithAYellowWarningSign() throws {
        var state = Self.state()
        _ = state.handle(.home)
        _ = state.handle(.down)
        _ = state.handle(.down)
        _ = state.handle(.down)
        let frame = renderer.render(state, width: 100, height: 30)
        try assertSnapshot(frame, named: "leak-warned-detail")
        #expect(frame.text.contains("⚠ check for leaks (leaks: warn)"))
        #expect(frame.text.contains("• 1 cached response"))
    }

    @Test func asciiShowsAFailureAsXAndALeakUnderWarnAsAnExclamationMark() throws {
        let state = Self.state()
        let frame = Renderer(glyphs: .ascii, theme: .monochrome).render(state, width: 80, height: 24)
        try assertSnapshot(frame, named: "leak-ascii")
        #expect(frame.text.contains("x Posting a review that t~"), "a failure, not the leak mark")
        #expect(frame.text.contains("! Posting a review while ~"))
    }
}
