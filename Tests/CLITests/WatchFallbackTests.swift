import Foundation
import TestSupport
import Testing

/// `--watch` where it used to stop seeing changes without a word, through the built binary: a linked
/// scenario file's target, no inotify watch to be had, an overflowed inotify queue (both provoked through
/// `SCENARIO_RUN_WATCH_TEST_FAULT`: the real limits are root's to lower), editors' temporary files, a
/// project folder removed while watching, and a scenario renamed while the workers load.
@Suite(.serialized)
struct WatchFallbackTests {
    static let scenarioA = "scenarios:\n  - scenario: A\n    steps: [succeed]\n"

    /// `--ci --watch` in `project`, once it watches.
    private func watch(_ project: URL, environment: [String: String] = [:]) async throws -> CLI.Running {
        let running = try CLI.Running(["--ci", "--watch"], directory: project, environment: environment)
        #expect(
            await eventually(timeout: .seconds(60)) { running.stdout.contains("Ctrl-C to stop.") },
            "\(running.stdout)\(running.stderr)"
        )
        return running
    }

    /// Saves `text` as an editor does: a temporary file beside it, renamed over it.
    private func save(_ text: String, to url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    private func expectOutput(
        _ running: CLI.Running,
        contains text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        #expect(
            await eventually(timeout: .seconds(60)) { running.stdout.contains(text) },
            "no \(text.debugDescription) in:\n\(running.stdout)\(running.stderr)",
            sourceLocation: sourceLocation
        )
    }

    /// Ctrl-C, once the run in progress has printed its summary when `afterSummary`.
    private func stop(_ running: CLI.Running, afterSummary: Bool = true) async -> CLI.Result {
        if afterSummary { _ = await eventually(timeout: .seconds(60)) { running.stdout.hasSuffix(" failed\n") } }
        kill(running.process.processIdentifier, SIGINT)
        #expect(await running.ended(within: .seconds(60)), "still running 60 s after Ctrl-C")
        return await running.wait()
    }

    @Test func theTargetOfALinkedScenarioFileIsWatched() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.scenarioA])
        let elsewhere = CLI.scratchRoot.appendingPathComponent("linked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let target = elsewhere.appendingPathComponent("real.yml")
        try save("scenarios:\n  - scenario: L\n    steps: [succeed]\n", to: target)
        try FileManager.default.createSymbolicLink(
            at: project.appendingPathComponent("Scenarios/link.yml"),
            withDestinationURL: target
        )
        let running = try await watch(project)
        try save("scenarios:\n  - scenario: L saved\n    steps: [succeed]\n", to: target)
        await expectOutput(running, contains: "Changed Scenarios/link.yml: running 1 scenario.\n✓ L saved (")
        let stopped = await stop(running)
        #expect(stopped.status == 0, "\(stopped.status): \(stopped.stderr)")
    }

    @Test func noInotifyWatchMeansPollingAndSaysSo() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.scenarioA])
        let running = try await watch(project, environment: ["SCENARIO_RUN_WATCH_TEST_FAULT": "watch-limit=0"])
        let note = try #require(running.stdout.split(separator: "\n").first { $0.hasPrefix("Watching by polling") })
        #expect(
            note.hasPrefix("Watching by polling every 0.3 s: inotify could not watch '")
                && note.hasSuffix("' (the limit of inotify watches is reached: fs.inotify.max_user_watches)."),
            "\(note)"
        )
        try save(
            "scenarios:\n  - scenario: A saved\n    steps: [succeed]\n",
            to: project.appendingPathComponent("Scenarios/a.yml")
        )
        await expectOutput(running, contains: "Changed Scenarios/a.yml: running 1 scenario.\n✓ A saved (")
        let stopped = await stop(running)
        #expect(stopped.status == 0, "\(stopped.status): \(stopped.stderr)")
    }

    @Test func anOverflowedQueueComparesEveryFileAndSaysSo() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.scenarioA])
        let running = try await watch(project, environment: ["SCENARIO_RUN_WATCH_TEST_FAULT": "overflow"])
        let a = project.appendingPathComponent("Scenarios/a.yml")
        // The events of this save are the ones the queue drops.
        try save("scenarios:\n  - scenario: A first\n    steps: [succeed]\n", to: a)
        await expectOutput(
            running,
            contains: "inotify lost events (its queue overflowed): every watched file was compared again.\n"
                + "\nChanged Scenarios/a.yml: running 1 scenario.\n✓ A first ("
        )
        try save("scenarios:\n  - scenario: A second\n    steps: [succeed]\n", to: a)
        await expectOutput(running, contains: "Changed Scenarios/a.yml: running 1 scenario.\n✓ A second (")
        let stopped = await stop(running)
        #expect(stopped.status == 0, "\(stopped.status): \(stopped.stderr)")
    }

    @Test func editorsTemporaryFilesAreNoChange() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.scenarioA])
        let running = try await watch(project)
        let fixtures = project.appendingPathComponent("Fixtures")
        for name in ["#server.yml#", ".#server.yml", "server.yml~", "server.yml.swp", "4913", "review.json.tmp"] {
            try save("x", to: fixtures.appendingPathComponent(name))
        }
        try save(
            "scenarios:\n  - scenario: A saved\n    steps: [succeed]\n",
            to: project.appendingPathComponent("Scenarios/a.yml")
        )
        await expectOutput(running, contains: "✓ A saved (")
        let changed = running.stdout.split(separator: "\n").filter { $0.hasPrefix("Changed") }
        #expect(changed == ["Changed Scenarios/a.yml: running 1 scenario."], "\(running.stdout)")
        let stopped = await stop(running)
        #expect(stopped.status == 0, "\(stopped.status): \(stopped.stderr)")
    }

    /// The project folder removed while watching: Ctrl-C's end of the run does not make it again to
    /// keep the failures in.
    @Test func aRemovedProjectFolderIsNotMadeAgain() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.scenarioA])
        let running = try await watch(project)
        try FileManager.default.removeItem(at: project)
        await expectOutput(running, contains: "Changed; cannot run:")
        let result = await stop(running, afterSummary: false)
        #expect(!FileManager.default.fileExists(atPath: project.path), "\(project.path) was made again")
        #expect(
            result.stderr.contains(
                "warning: The failed scenarios were not saved for --rerun-failed: Cannot write '\(project.path)/.scenario-run/last-failed.json': the project folder '\(project.path)' is gone."
            ),
            "\(result.stderr)"
        )
    }

    /// 3,000 scenarios, one renamed at a moment that moves through the time the parent and its worker
    /// load them: each run ends (the worker refuses a scenario its file no longer has, in words), none waits
    /// for a scenario its worker never had.
    @Test func aScenarioRenamedWhileWorkersLoadNeverHangsTheRun() async throws {
        let names = (0..<3_000).map { "S\($0)" }
        func file(renaming: Bool) -> String {
            "scenarios:\n"
                + names.map { "  - scenario: \($0 == "S5" && renaming ? "S5 renamed" : $0)\n    steps: [succeed]\n" }
                .joined()
        }
        let project = try CLI.project(["Scenarios/big.yml": file(renaming: false)])
        let big = project.appendingPathComponent("Scenarios/big.yml")
        var refused = 0
        for attempt in 0..<40 where refused < 2 {
            try save(file(renaming: false), to: big)
            let running = try CLI.Running(
                ["--ci", "--jobs", "1", "--filter", "^S5"],
                directory: project,
                environment: [:]
            )
            // Not a wait for work: the moment of the rename sweeps across the loading.
            try await Task.sleep(for: .milliseconds(10 * attempt))
            try save(file(renaming: true), to: big)
            let ended = await running.ended(within: .seconds(60))
            let result = await running.wait()
            #expect(ended, "attempt \(attempt): still running after 60 s\n\(result.stdout.suffix(300))")
            if result.stderr.contains("The scenario files changed while the run started") {
                refused += 1
                #expect(result.status == 1, "a refused scenario fails the run: \(result.stdout.suffix(300))")
                #expect(
                    result.stderr.contains(
                        "error: The scenario files changed while the run started: Scenarios/big.yml no longer has 'S5' at line 12."
                    ),
                    "\(result.stderr)"
                )
            } else {
                #expect(result.status == 0, "attempt \(attempt): \(result.stderr)")
            }
            if !ended { break }
        }
    }

    /// Two quick saves renaming a scenario, at moments that sweep across the re-run's loading: the watch
    /// goes on seeing every later save (a run that waited for ever stopped it).
    @Test func twoQuickSavesNeverStopTheWatch() async throws {
        let names = (0..<3_000).map { "S\($0)" }
        func file(_ five: String) -> String {
            "scenarios:\n" + names.map { "  - scenario: \($0 == "S5" ? five : $0)\n    steps: [succeed]\n" }.joined()
        }
        let project = try CLI.project(["Scenarios/big.yml": file("S5"), "Scenarios/mark.yml": Self.scenarioA])
        let big = project.appendingPathComponent("Scenarios/big.yml")
        let mark = project.appendingPathComponent("Scenarios/mark.yml")
        let running = try CLI.Running(
            ["--ci", "--watch", "--jobs", "1", "--filter", "^S5"],
            directory: project,
            environment: [:]
        )
        await expectOutput(running, contains: "Ctrl-C to stop.")
        for attempt in 0..<20 {
            try save(file("S5 a\(attempt)"), to: big)
            // Not a wait for work: the second save's moment sweeps across the re-run's loading.
            try await Task.sleep(for: .milliseconds(200 + 20 * attempt))
            try save(file("S5 b\(attempt)"), to: big)
            try save("scenarios:\n  - scenario: S5 mark \(attempt)\n    steps: [succeed]\n", to: mark)
            await expectOutput(running, contains: "✓ S5 mark \(attempt) (")
            if !running.stdout.contains("✓ S5 mark \(attempt) (") { break }
        }
        _ = await stop(running)
    }
}
