import Foundation
import Scenarios
import Synchronization
import TestSupport
import Testing

@testable import TUIRunner

/// A stand-in for the scenario runner: plays fixture events, records calls, can hold a run open.
final class FakeRunner: Sendable {
    private struct State {
        var calls: [[ScenarioID]?] = []
        var cancels = 0
        var held: CheckedContinuation<Void, Never>?
        var holdNext = false
        var fixed: Set<ScenarioID> = []
    }

    private let state = Mutex(State())

    var calls: [[ScenarioID]?] { state.withLock { $0.calls } }
    var cancels: Int { state.withLock { $0.cancels } }
    var isHolding: Bool { state.withLock { $0.held != nil } }

    /// The next run stops after its first scenario starts, until cancelled.
    func holdNextRun() { state.withLock { $0.holdNext = true } }
    /// Later runs of this scenario pass.
    func fix(_ id: ScenarioID) { state.withLock { _ = $0.fixed.insert(id) } }

    func run(_ ids: [ScenarioID]?, _ onEvent: @Sendable (RunEvent) -> Void) async -> RunSummary {
        let (hold, fixed) = state.withLock { state in
            state.calls.append(ids)
            defer { state.holdNext = false }
            return (state.holdNext, state.fixed)
        }
        let selected = ids ?? Fixtures.ids
        onEvent(.runStarted(Fixtures.plan(selected)))
        var summary = RunSummary(duration: .milliseconds(20))
        for (index, id) in selected.enumerated() {
            if hold, index == 0 {
                onEvent(.scenarioStarted(id))
                await withCheckedContinuation { continuation in state.withLock { $0.held = continuation } }
                onEvent(.scenarioFinished(id, outcome: .skipped, duration: .zero))
                for rest in selected.dropFirst() {
                    onEvent(.scenarioFinished(rest, outcome: .skipped, duration: .zero))
                }
                summary.skipped = selected.count
                summary.cancelled = true
                break
            }
            if id == Fixtures.rejected, !fixed.contains(id) {
                Fixtures.failing(id).forEach(onEvent)
                summary.failed += 1
            } else {
                Fixtures.passing(id).forEach(onEvent)
                summary.passed += 1
            }
        }
        onEvent(.runFinished(summary))
        return summary
    }

    func cancel() {
        let held = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.cancels += 1
            defer { state.held = nil }
            return state.held
        }
        held?.resume()
    }
}

/// Waits (without fixed sleeps) until `condition` holds, failing after `timeout`.
func waitUntil(
    _ description: String,
    timeout: Duration = .seconds(60),
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    if !(await eventually(timeout: timeout, { condition() })) {
        Issue.record("Timed out waiting until \(description)", sourceLocation: sourceLocation)
    }
}

struct RunnerLoopTests {
    /// A loop started on a run that holds mid-scenario, once it holds.
    private func startHeldRun() async -> (MemoryScreen, FakeRunner, RunnerLoop, Task<TUIOutcome, Never>) {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        runner.holdNextRun()
        let loop = makeLoop(screen, runner)
        let task = Task { await loop.run() }
        await waitUntil("the run is held mid-scenario") { runner.isHolding }
        return (screen, runner, loop, task)
    }

    private func makeLoop(
        _ screen: MemoryScreen,
        _ runner: FakeRunner,
        exit: Bool = false,
        inspector: (@Sendable () -> InspectorSnapshot?)? = nil
    ) -> RunnerLoop {
        RunnerLoop(
            screen: screen,
            renderer: Renderer(),
            configuration: TUIConfiguration(exitWhenFinished: exit, inspector: inspector),
            frameInterval: .milliseconds(1),
            run: { ids, onEvent in await runner.run(ids, onEvent) },
            cancel: { runner.cancel() }
        )
    }

    @Test func runsShowsTheRunAndQuitsOnQ() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        let loop = makeLoop(screen, runner)
        let task = Task { await loop.run() }
        await waitUntil("the run is finished on screen") { screen.frame?.text.contains("finished") == true }
        #expect(screen.frame?.text.contains("5/5  1 failed") == true)
        screen.press(.character("q"))
        let outcome = await task.value
        #expect(outcome.summary.line == "4 passed, 1 failed")
        #expect(runner.calls.count == 1)
        #expect(screen.endCount == 0, "restoring is the session's job")
    }

    @Test func rerunOfTheFailedScenarioMergesIntoOneRun() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        let loop = makeLoop(screen, runner)
        let task = Task { await loop.run() }
        await waitUntil("the first run ends") { screen.frame?.text.contains("finished") == true }
        runner.fix(Fixtures.rejected)
        screen.press(.character("F"))
        await waitUntil("the failure is fixed") { screen.frame?.text.contains("5/5  0 failed") == true }
        #expect(runner.calls.last == [Fixtures.rejected])
        screen.press(.character("q"))
        let outcome = await task.value
        #expect(outcome.summary.line == "5 passed, 0 failed")
        guard case .runStarted(let plan)? = outcome.events.first else {
            Issue.record("merged events start with runStarted")
            return
        }
        #expect(plan.scenarios.map(\.id) == Fixtures.ids)
        let finished = outcome.events.filter { if case .scenarioFinished = $0 { true } else { false } }
        #expect(finished.count == 5, "one result per scenario: the latest")
    }

    @Test func quitDuringARunCancelsItAndWaitsForItsEnd() async {
        let (screen, runner, _, task) = await startHeldRun()
        screen.press(.character("q"))
        let outcome = await task.value
        #expect(runner.cancels == 1)
        #expect(outcome.summary.cancelled)
        #expect(outcome.summary.skipped == 5)
    }

    @Test func interruptCancelsThenQuits() async {
        let (_, runner, loop, task) = await startHeldRun()
        loop.inputs.yield(.interrupt)
        let outcome = await task.value
        #expect(runner.cancels == 1)
        #expect(outcome.summary.cancelled)
    }

    @Test func cancelKeyKeepsTheRunnerOpen() async {
        let (screen, runner, _, task) = await startHeldRun()
        screen.press(.character("c"))
        await waitUntil("the run shows cancelled") { screen.frame?.text.contains("cancelled") == true }
        #expect(runner.cancels == 1)
        screen.press(.character("q"))
        _ = await task.value
    }

    @Test func resizeRedrawsAtTheNewSize() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        let loop = makeLoop(screen, runner)
        let task = Task { await loop.run() }
        await waitUntil("the run ends") { screen.frame?.text.contains("finished") == true }
        screen.resize(width: 50, height: 10)
        loop.inputs.yield(.resize)
        await waitUntil("the too-small message") { screen.frame?.width == 50 }
        #expect(screen.frame?.text.hasPrefix("Terminal too small (50x10)") == true)
        screen.resize(width: 120, height: 40)
        screen.press(.resize)
        await waitUntil("the panes at 120x40") { screen.frame?.width == 120 && screen.frame?.height == 40 }
        #expect(screen.frame?.text.contains("Scenarios (All)") == true)
        screen.press(.character("q"))
        _ = await task.value
    }

    @Test func exitWhenFinishedQuitsWithoutKeys() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        let outcome = await makeLoop(screen, runner, exit: true).run()
        #expect(outcome.summary.line == "4 passed, 1 failed")
        #expect(screen.frames >= 1)
    }

    @Test func onlyChangedCellsAreWritten() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        let loop = makeLoop(screen, runner)
        let task = Task { await loop.run() }
        await waitUntil("the run ends") { screen.frame?.text.contains("finished") == true }
        let before = screen.writtenCells
        let frames = screen.frames
        screen.press(.character("k"))
        await waitUntil("a frame after the key") { screen.frames > frames }
        let written = screen.writtenCells - before
        #expect(written > 0)
        #expect(written < 100 * 30 / 4, "moving the selection rewrites a few rows, not the screen (\(written) cells)")
        screen.press(.character("q"))
        _ = await task.value
    }

    @Test func inspectorSnapshotIsTakenWhenEachScenarioFinishes() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        let taken = Mutex(0)
        let loop = makeLoop(screen, runner, exit: true) {
            taken.withLock { $0 += 1 }
            return Fixtures.inspection()
        }
        _ = await loop.run()
        #expect(taken.withLock { $0 } == 5)
    }

    @Test func manyEventsAreNeverDropped() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let ids = (0..<2_000).map { ScenarioID(file: "Scenarios/many.yml", name: "Scenario \($0)") }
        let loop = RunnerLoop(
            screen: screen,
            renderer: Renderer(),
            configuration: TUIConfiguration(exitWhenFinished: true),
            run: { _, onEvent in
                onEvent(.runStarted(RunPlan(scenarios: ids.map(Fixtures.planned))))
                for id in ids { Fixtures.passing(id).forEach(onEvent) }
                onEvent(.runFinished(RunSummary(passed: ids.count)))
                return RunSummary(passed: ids.count)
            },
            cancel: {}
        )
        let outcome = await loop.run()
        #expect(outcome.summary.passed == 2_000)
        #expect(outcome.events.count == 2 + 2_000 * Fixtures.passing(ids[0]).count)
    }
}

struct TerminalSessionTests {
    @Test func restoreEndsTheScreenExactlyOnce() {
        let screen = MemoryScreen(width: 80, height: 24)
        let session = TerminalSession(screen: screen)
        #expect(!session.isRestored)
        session.restore()
        session.restore()
        #expect(screen.endCount == 1)
        #expect(session.isRestored)
    }

    @Test func concurrentRestoresEndOnce() async {
        let screen = MemoryScreen(width: 80, height: 24)
        let session = TerminalSession(screen: screen)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { session.restore() } }
        }
        #expect(screen.endCount == 1)
    }
}

/// A screen whose `end()` waits until the test lets it finish, as the real one waits for its key thread.
final class SlowEndingScreen: Screen {
    let started = DispatchSemaphore(value: 0)
    let finish = DispatchSemaphore(value: 0)
    private let ended = Mutex(false)
    var hasEnded: Bool { ended.withLock { $0 } }
    var size: (width: Int, height: Int) { (80, 24) }
    func present(_ frame: CellBuffer) {}
    func refreshSize() {}
    func startReadingKeys(_ deliver: @escaping @Sendable ([Key]) -> Void) {}
    func end() {
        started.signal()
        finish.wait()
        ended.withLock { $0 = true }
    }
}

struct TerminalRestoreRaceTests {
    /// A second signal while the loop's own restore is under way (a found flake: the terminal was left
    /// in curses mode): the second caller returns only once the screen has ended.
    @Test func aSecondRestoreWaitsForTheFirstToFinish() async {
        let screen = SlowEndingScreen()
        let session = TerminalSession(screen: screen)
        let first = Thread { session.restore() }
        first.start()
        screen.started.wait()
        let secondReturned = Mutex<Bool?>(nil)
        let second = Thread {
            session.restore()
            secondReturned.withLock { $0 = screen.hasEnded }
        }
        second.start()
        // The second caller must still be waiting while the first is inside `end()`.
        #expect(await !eventually(timeout: .milliseconds(200)) { secondReturned.withLock { $0 } != nil })
        screen.finish.signal()
        #expect(await eventually { secondReturned.withLock { $0 } != nil })
        #expect(secondReturned.withLock { $0 } == true, "it returned after the screen had ended")
    }
}

struct EventLogTests {
    @Test func mergesTheLatestRunOfEachScenario() {
        var log = EventLog()
        Fixtures.finishedRun().forEach { log.record($0) }
        #expect(log.merged().summary.line == "4 passed, 1 failed")
        log.record(.runStarted(Fixtures.plan([Fixtures.rejected])))
        Fixtures.passing(Fixtures.rejected).forEach { log.record($0) }
        log.record(.runFinished(RunSummary(passed: 1, duration: .milliseconds(5))))
        #expect(log.merged().summary.line == "5 passed, 0 failed")
        #expect(log.merged().summary.duration == .milliseconds(10_105))
        #expect(log.runs == 2)
    }

    @Test func scenariosThatNeverFinishedAreSkipped() {
        var log = EventLog()
        log.record(.runStarted(Fixtures.plan()))
        Fixtures.passing(Fixtures.posting).forEach { log.record($0) }
        log.record(.runFinished(RunSummary(passed: 1, cancelled: true)))
        #expect(log.merged().summary.line == "1 passed, 0 failed, 4 skipped")
        #expect(log.merged().summary.cancelled)
        #expect(
            log.merged().events.filter { if case .scenarioFinished(_, .skipped, _) = $0 { true } else { false } }.count
                == 4
        )
    }

    @Test func plainReporterPrintsTheMergedSummary() {
        var log = EventLog()
        Fixtures.finishedRun().forEach { log.record($0) }
        let output = Mutex("")
        let reporter = PlainReporter { text in output.withLock { $0 += text } }
        log.merged().events.forEach(reporter.handle)
        let text = output.withLock { $0 }
        #expect(text.hasSuffix("4 passed, 1 failed\n"))
        #expect(text.contains("✗ Posting a review that the server rejects"))
    }
}
