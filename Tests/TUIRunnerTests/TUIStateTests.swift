import Scenarios
import Testing

@testable import TUIRunner

struct TUIStateTests {
    @Test func runStartedShowsEveryScenarioPendingGroupedByFeature() {
        let state = Fixtures.state([.runStarted(Fixtures.plan())])
        #expect(state.rows.count == 7)
        #expect(state.rows.first == .feature(Fixtures.reviews))
        #expect(state.counts == TUIState.Counts(done: 0, total: 5, failed: 0))
        #expect(state.scenarios[Fixtures.posting]?.status == .pending)
        #expect(state.runState == .running)
    }

    @Test func followsTheRunningScenarioUntilTheUserMoves() {
        var state = Fixtures.state([.runStarted(Fixtures.plan()), .scenarioStarted(Fixtures.posting)])
        #expect(state.selection == .scenario(Fixtures.posting))
        #expect(state.shownScenario == Fixtures.posting)
        for event in Fixtures.passing(Fixtures.posting).dropFirst() { state.apply(event) }
        state.apply(.scenarioStarted(Fixtures.rejected))
        #expect(state.selection == .scenario(Fixtures.rejected))
        _ = state.handle(.up)
        #expect(state.selection == .scenario(Fixtures.posting))
        state.apply(.scenarioStarted(Fixtures.offline))
        #expect(state.selection == .scenario(Fixtures.posting), "the user moved: the selection stays")
        #expect(state.running == Fixtures.offline)
    }

    @Test func stepsTrackStatusWaitingAndFailure() {
        var state = Fixtures.state([.runStarted(Fixtures.plan())])
        let events = Fixtures.failing(Fixtures.rejected)
        for event in events.prefix(8) { state.apply(event) }
        let waiting = state.scenarios[Fixtures.rejected]?.steps[2]
        #expect(waiting?.status == .running)
        #expect(waiting?.waitReason == "no response yet")
        #expect(waiting?.waited == .milliseconds(50))
        for event in events.dropFirst(8) { state.apply(event) }
        let scenario = state.scenarios[Fixtures.rejected]
        #expect(scenario?.status == .failed)
        #expect(scenario?.steps[2].failure == Fixtures.failure)
        #expect(scenario?.steps[2].failureLocation?.fileAndLine == "Scenarios/reviews.yml:12")
        #expect(scenario?.logs == ["POST /422 → 422"])
        #expect(state.detailStep == 2)
    }

    @Test func countsPerFeatureAndOverall() {
        let state = Fixtures.state(Fixtures.finishedRun())
        #expect(state.counts == TUIState.Counts(done: 5, total: 5, failed: 1))
        #expect(state.counts(ofFile: Fixtures.reviews) == TUIState.Counts(done: 3, total: 3, failed: 1))
        #expect(state.counts(ofFile: Fixtures.store) == TUIState.Counts(done: 2, total: 2, failed: 0))
        #expect(state.runState == .finished)
        #expect(state.elapsed == .milliseconds(10_100))
    }

    @Test func failedFilterShowsOnlyFailuresAndTogglesBack() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.character("f"))
        #expect(state.rows == [.feature(Fixtures.reviews), .scenario(Fixtures.rejected)])
        #expect(state.selection == .scenario(Fixtures.rejected))
        _ = state.handle(.character("f"))
        #expect(state.rows.count == 7)
        _ = state.handle(.character("f"))
        _ = state.handle(.character("a"))
        #expect(state.filterMode == .all)
    }

    @Test func textFilterIsLiveAndEscapeClearsIt() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.character("/"))
        for character in "EMPTY" { _ = state.handle(.character(character)) }
        #expect(state.isEditingFilter)
        #expect(state.rows == [.feature(Fixtures.store), .scenario(Fixtures.empty)])
        _ = state.handle(.backspace)
        #expect(state.filterText == "EMPT")
        _ = state.handle(.enter)
        #expect(!state.isEditingFilter)
        #expect(state.filterText == "EMPT", "Enter keeps the filter")
        #expect(state.handle(.character("q")) == .quit, "keys work again after Enter")
        _ = state.handle(.character("/"))
        _ = state.handle(.escape)
        #expect(state.filterText.isEmpty)
        #expect(state.rows.count == 7)
    }

    @Test func filterMatchesTheFeatureName() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.character("/"))
        for character in "store" { _ = state.handle(.character(character)) }
        #expect(state.rows == [.feature(Fixtures.store), .scenario(Fixtures.factories), .scenario(Fixtures.empty)])
    }

    @Test func moveWithArrowsAndVimKeysClampsAtTheEnds() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.home)
        #expect(state.selection == .feature(Fixtures.reviews))
        _ = state.handle(.character("j"))
        _ = state.handle(.down)
        #expect(state.selection == .scenario(Fixtures.rejected))
        _ = state.handle(.character("k"))
        #expect(state.selection == .scenario(Fixtures.posting))
        _ = state.handle(.end)
        _ = state.handle(.down)
        #expect(state.selection == .scenario(Fixtures.empty))
    }

    @Test func enterCollapsesAndExpandsAFeature() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.home)
        _ = state.handle(.enter)
        #expect(
            state.rows == [
                .feature(Fixtures.reviews), .feature(Fixtures.store), .scenario(Fixtures.factories),
                .scenario(Fixtures.empty),
            ]
        )
        _ = state.handle(.enter)
        #expect(state.rows.count == 7)
    }

    @Test func tabSwitchesToStepsAndSelectsTheFailedStep() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.home)
        _ = state.handle(.down)
        _ = state.handle(.down)
        #expect(state.selectedScenario == Fixtures.rejected)
        _ = state.handle(.tab)
        #expect(state.focus == .steps)
        #expect(state.stepSelection == 2)
        _ = state.handle(.down)
        #expect(state.stepSelection == 3)
        #expect(state.detailStep == 2, "a passed step shows the scenario's failure")
        _ = state.handle(.tab)
        #expect(state.focus == .tree)
    }

    @Test func rerunRequests() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.home)
        #expect(state.handle(.character("r")) == .rerun([Fixtures.posting, Fixtures.rejected, Fixtures.offline]))
        _ = state.handle(.down)
        #expect(state.handle(.character("r")) == .rerun([Fixtures.posting]))
        #expect(state.handle(.character("R")) == .rerunAll)
        #expect(state.handle(.character("F")) == .rerunFailed([Fixtures.rejected]))
    }

    @Test func rerunIsRefusedWhileRunningAndFailedNeedsFailures() {
        var state = Fixtures.state([.runStarted(Fixtures.plan()), .scenarioStarted(Fixtures.posting)])
        #expect(state.handle(.character("r")) == nil)
        #expect(state.message?.contains("press c") == true)
        #expect(state.handle(.character("R")) == nil)
        var passed = Fixtures.state(
            [.runStarted(Fixtures.plan([Fixtures.posting]))] + Fixtures.passing(Fixtures.posting)
                + [.runFinished(RunSummary(passed: 1))]
        )
        #expect(passed.handle(.character("F")) == nil)
        #expect(passed.message == "No failed scenario to re-run.")
    }

    @Test func secondRunStartedResetsThoseScenariosToPending() {
        var state = Fixtures.state(Fixtures.finishedRun())
        state.apply(.runStarted(Fixtures.plan([Fixtures.rejected])))
        #expect(state.scenarios[Fixtures.rejected]?.status == .pending)
        #expect(state.scenarios[Fixtures.rejected]?.logs == [])
        #expect(state.scenarios[Fixtures.posting]?.status == .passed, "other scenarios keep their results")
        #expect(state.order.count == 5)
        #expect(state.counts == TUIState.Counts(done: 4, total: 5, failed: 0))
        #expect(state.runState == .running)
        for event in Fixtures.passing(Fixtures.rejected) { state.apply(event) }
        state.apply(.runFinished(RunSummary(passed: 1)))
        #expect(state.counts == TUIState.Counts(done: 5, total: 5, failed: 0))
    }

    @Test func cancelOnlyWhileRunning() {
        var state = Fixtures.state([.runStarted(Fixtures.plan()), .scenarioStarted(Fixtures.posting)])
        #expect(state.handle(.character("c")) == .cancel)
        #expect(state.runState == .cancelling)
        #expect(state.handle(.character("c")) == nil)
        state.apply(.runFinished(RunSummary(passed: 0, skipped: 5, cancelled: true)))
        #expect(state.runState == .cancelled)
        #expect(state.handle(.character("c")) == nil)
        #expect(state.message == "No run in progress.")
    }

    @Test func quitAndHelp() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.character("?"))
        #expect(state.showsHelp)
        _ = state.handle(.escape)
        #expect(!state.showsHelp)
        #expect(state.handle(.character("q")) == .quit)
    }

    /// Without KIF_SKIP_TEAR_DOWN, `i` says why there is nothing to inspect, in the footer.
    @Test func theInspectorWithoutSkipTearDownSaysWhyInTheFooter() {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.character("i"))
        let frame = Renderer(glyphs: .unicode, theme: .monochrome).render(state, width: 120, height: 30)
        let footer = frame.text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            footer.hasPrefix(
                "Nothing to inspect: tear-down empties the store. Run with KIF_SKIP_TEAR_DOWN=1 to inspect it."
            ),
            "\(frame.text)"
        )
        _ = state.handle(.down)
        #expect(state.message == nil, "the next key clears it")
    }

    @Test func inspectorNeedsSkipTearDownAndShowsTheSelectedScenariosSnapshot() {
        var without = Fixtures.state(Fixtures.finishedRun())
        _ = without.handle(.character("i"))
        #expect(!without.showsInspector)
        #expect(without.message?.contains("KIF_SKIP_TEAR_DOWN") == true)

        var state = Fixtures.state(Fixtures.finishedRun(), inspector: true)
        state.record(Fixtures.inspection(), for: Fixtures.rejected)
        _ = state.handle(.home)
        _ = state.handle(.down)
        _ = state.handle(.down)
        _ = state.handle(.character("i"))
        #expect(state.showsInspector)
        #expect(state.shownInspection == Fixtures.inspection())
        _ = state.handle(.down)
        #expect(state.inspectorEntity == 1)
        _ = state.handle(.down)
        #expect(state.inspectorEntity == 1, "clamped to the last entity")
        _ = state.handle(.escape)
        #expect(!state.showsInspector)
        state.apply(.runStarted(Fixtures.plan([Fixtures.rejected])))
        #expect(state.shownInspection == nil, "a re-run forgets the old snapshot")
    }
}

/// `--retries`: a scenario that passed after a failed try is flaky, with a badge that survives re-runs.
struct FlakyBadgeTests {
    static func flakyRun(_ id: ScenarioID) -> [RunEvent] {
        var events: [RunEvent] = [.scenarioStarted(id)]
        events.append(
            .stepFinished(
                id,
                step: 1,
                phase: .steps,
                outcome: .failed(reason: "Not yet", location: nil),
                duration: .zero
            )
        )
        events.append(.attemptFinished(id, attempt: 1, outcome: .failed(step: 1, reason: "Not yet"), duration: .zero))
        return events + Fixtures.passing(id)
    }

    @Test func aScenarioThatPassedOnARetryIsFlakyAndStaysSoAcrossReRuns() {
        var state = Fixtures.state([.runStarted(Fixtures.plan())] + Self.flakyRun(Fixtures.posting))
        #expect(state.scenarios[Fixtures.posting]?.status == .passed)
        #expect(state.flaky[Fixtures.posting]?.failed == 1 && state.flaky[Fixtures.posting]?.tries == 2)
        #expect(state.scenarios[Fixtures.posting]?.steps[1].status == .passed, "the second try's steps are shown")
        let frame = Renderer().render(state, width: 100, height: 30).text
        #expect(frame.contains("Posting a review that succeeds") && frame.contains("flaky"), "\(frame)")

        // A re-run of the scenario that passes at once: the badge stays for the session.
        state.apply(.runStarted(Fixtures.plan([Fixtures.posting])))
        for event in Fixtures.passing(Fixtures.posting) { state.apply(event) }
        #expect(state.flaky[Fixtures.posting] != nil)
        #expect(Renderer().render(state, width: 100, height: 30).text.contains("flaky"))
    }
}
