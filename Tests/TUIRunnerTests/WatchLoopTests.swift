import Scenarios
import TestSupport
import Testing

@testable import TUIRunner

/// `--watch` in the live runner's loop: a reload re-runs what changed and drops what is gone; a load
/// error is shown with its caret until the next reload clears it.
struct WatchLoopTests {
    @Test func aReloadRerunsAndALoadErrorShowsUntilFixed() async {
        let screen = MemoryScreen(width: 100, height: 30)
        let runner = FakeRunner()
        let loop = RunnerLoop(
            screen: screen,
            renderer: Renderer(),
            configuration: TUIConfiguration(),
            frameInterval: .milliseconds(1),
            run: { ids, onEvent in await runner.run(ids, onEvent) },
            cancel: { runner.cancel() }
        )
        let task = Task { await loop.run() }
        await waitUntil("the first run ends") { screen.frame?.text.contains("5/5  1 failed") == true }

        let error = "Scenarios/reviews.yml:12:9: error: Unknown step 'stub rout'.\n      - stub rout: x\n        ^"
        loop.inputs.yield(.watched(.failed(error)))
        await waitUntil("the load error is shown") {
            screen.frame?.text.contains("Load error: fix the file to run again") == true
        }
        let frame = screen.frame?.text ?? ""
        // The message wraps; the source line and the caret under column 9 keep their columns.
        #expect(frame.contains("│ Scenarios/reviews.yml:12:9: error: Unknown step "), "\(frame)")
        #expect(frame.contains("│ 'stub rout'. "))
        #expect(frame.contains("│       - stub rout: x "))
        #expect(frame.contains("│         ^ "))

        // Fixed: the store feature is gone, the reviews re-run.
        runner.fix(Fixtures.rejected)
        let reviews = [Fixtures.posting, Fixtures.rejected, Fixtures.offline]
        loop.inputs.yield(.watched(.reloaded(all: reviews, run: reviews, changed: "Scenarios/reviews.yml")))
        await waitUntil("the re-run ends") { screen.frame?.text.contains("3/3  0 failed") == true }
        let after = screen.frame?.text ?? ""
        #expect(!after.contains("Load error"))
        #expect(!after.contains("Factories build objects"), "a scenario no longer loaded leaves the tree")
        #expect(after.contains("run 2"))
        #expect(runner.calls.last == reviews)

        // A feature that comes back is shown again.
        loop.inputs.yield(.watched(.reloaded(all: Fixtures.ids, run: [Fixtures.empty], changed: "Scenarios/store.yml")))
        await waitUntil("the store feature is back") {
            screen.frame?.text.contains("Each scenario starts with an emp") == true
        }

        // The watcher fell back to polling: the footer says so.
        let note = "Watching by polling every 0.3 s: inotify could not watch 'Fixtures' (limit reached)."
        loop.inputs.yield(.watched(.note(note)))
        await waitUntil("the note is shown") { screen.frame?.text.contains(note) == true }
        screen.press(.character("q"))
        _ = await task.value
    }
}
