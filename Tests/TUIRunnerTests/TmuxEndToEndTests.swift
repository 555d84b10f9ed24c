import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Drives the built `scenario-run` in a real terminal: a detached tmux session of 100×30.
///
/// Skipped (with a message) only when tmux is not installed; CI installs it.
@Suite(.serialized, .enabled(if: Tmux.executable != nil, "tmux is not installed: the end-to-end TUI tests need it"))
struct TmuxEndToEndTests {
    @Test func demoSuiteFilterRerunQuitRestoresTheTerminal() async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let binary = try #require(Tmux.scenarioRunBinary, "build scenario-run first: swift build --build-tests")
        let before = try await tmux.stty(into: "before")

        tmux.type("\(binary); echo EXIT=$?")
        tmux.press("Enter")
        var pane = try await tmux.waitForPane("the demo run to finish") {
            $0.contains("31/31") && $0.contains("finished")
        }
        #expect(pane.contains("Posting a review the server"))
        #expect(pane.contains("Reviews"))
        #expect(pane.contains("✓"))
        #expect(pane.contains("31/31  0 failed"))
        #expect(pane.contains("█"), "the progress bar is drawn")
        #expect(pane.contains("┌"), "UTF-8 box drawing")

        tmux.press("f")
        // A frame may be captured while the terminal is half-way through drawing it: wait for the whole frame.
        pane = try await tmux.waitForPane("the Failed filter") {
            $0.contains("Scenarios (Failed)") && $0.contains("No scenario matches the filter.")
        }
        #expect(pane.contains("No scenario matches the filter."))
        #expect(!pane.contains("Posting a review the server"))
        tmux.press("a")
        pane = try await tmux.waitForPane("the All filter") {
            $0.contains("Scenarios (All)") && $0.contains("Loading the restaurant")
        }

        tmux.type("/review")
        pane = try await tmux.waitForPane("the text filter") { $0.contains("Scenarios (All) /review") }
        #expect(pane.contains("Posting a review the server"))
        #expect(!pane.contains("Loading the restaurant list"), "scenarios without 'review' are hidden")
        tmux.press("Enter")
        tmux.press("Down")

        tmux.press("r")
        pane = try await tmux.waitForPane("the re-run to finish") { Tmux.statusLine($0).contains("finished  run 2") }
        #expect(pane.contains("31/31  0 failed"))

        tmux.press("q")
        pane = try await tmux.waitForPane("the summary after quitting") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=0")
        #expect(pane.contains("31 passed, 0 failed"))
        #expect(!pane.contains("Scenarios (All)"), "the alternate screen is gone")
        let after = try await tmux.stty(into: "after")
        #expect(after == before, "stty -a is unchanged after quitting")
    }

    @Test func watchRerunsAnEditedFileShowsALoadErrorAndClearsItWhenFixed() async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let binary = try #require(Tmux.scenarioRunBinary, "build scenario-run first: swift build --build-tests")
        let project = tmux.folder.appendingPathComponent("watched")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Scenarios"),
            withIntermediateDirectories: true
        )
        try FileManager.default.copyItem(
            at: Tmux.repositoryRoot.appendingPathComponent("Fixtures"),
            to: project.appendingPathComponent("Fixtures")
        )
        let file = project.appendingPathComponent("Scenarios/watched.yml")
        try "scenarios:\n  - scenario: First version\n    steps: [succeed]\n".write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        tmux.type("\(binary) -C \(project.path) --watch; echo EXIT=$?")
        tmux.press("Enter")
        var pane = try await tmux.waitForPane("the first run") {
            $0.contains("First version") && $0.contains("finished")
        }

        try "scenarios:\n  - scenario: Second version\n    steps: [succeed]\n".write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        pane = try await tmux.waitForPane("the re-run of the saved file") {
            Tmux.statusLine($0).contains("finished  run 2") && $0.contains("Second version")
        }
        #expect(!pane.contains("First version"), "the renamed scenario replaces the old one")

        try "scenarios:\n  - scenario: Broken\n    steps: [suceed]\n".write(to: file, atomically: true, encoding: .utf8)
        pane = try await tmux.waitForPane("the load error") { $0.contains("Load error") && $0.contains("^") }
        #expect(pane.contains("Scenarios/watched.yml:3:13: error: Unknown step"), "\(pane)")
        #expect(pane.contains("'suceed'. Did you mean 'succeed'?"), "the message wraps in the pane: \(pane)")
        #expect(pane.contains("    steps: [suceed]"))

        try "scenarios:\n  - scenario: Fixed\n    steps: [succeed]\n".write(to: file, atomically: true, encoding: .utf8)
        pane = try await tmux.waitForPane("the error to clear and the fixed file to run") {
            Tmux.statusLine($0).contains("finished  run 3") && $0.contains("Fixed") && !$0.contains("Load error")
        }
        tmux.press("q")
        pane = try await tmux.waitForPane("the summary after quitting") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=0")
    }

    @Test func controlCMidScenarioRestoresTheTerminalAndWritesCompleteJUnit() async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let binary = try #require(Tmux.scenarioRunBinary, "build scenario-run first: swift build --build-tests")
        let before = try await tmux.stty(into: "before")
        let report = tmux.folder.appendingPathComponent("report.xml")

        // The second scenario waits up to 10 s for a request the stub server never answers.
        let scenarios = tmux.folder.appendingPathComponent("stalled.yml")
        try """
        feature: Stalled
        scenarios:
          - scenario: Quick
            steps: [succeed]
          - scenario: Waits for a stalled request
            steps:
              - get objects: { path: /stalled }
              - wait for requests
        """.write(to: scenarios, atomically: true, encoding: .utf8)
        tmux.type("\(binary) --junit \(report.path) \(scenarios.path); echo EXIT=$?")
        tmux.press("Enter")
        _ = try await tmux.waitForPane("a step waiting mid-scenario") {
            $0.contains("waiting") && $0.contains("running")
        }
        tmux.press("C-c")
        let pane = try await tmux.waitForPane("the summary after Ctrl-C") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=1")
        #expect(pane.contains("Run cancelled."))
        #expect(pane.contains("passed,"))
        let after = try await tmux.stty(into: "after")
        #expect(after == before, "stty -a is unchanged after Ctrl-C")

        let xml = try XMLDocument(contentsOf: report, options: [])
        let root = try #require(xml.rootElement())
        #expect(root.name == "testsuites")
        #expect(try xml.nodes(forXPath: "//testcase").count == 2)
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalToTheLiveRunnerCancelsRestoresTheTerminalAndLeavesNoWorker(signal: Int32) async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let before = try await tmux.stty(into: "before")
        let report = tmux.folder.appendingPathComponent("report.xml")
        let (runner, workers) = try await tmux.startFaults(
            """
            scenarios:
              - scenario: Quick
                steps: [succeed]
              - scenario: Sleeps
                steps:
                  - sleep: 30
              - scenario: Never runs
                steps: [succeed]
            """,
            options: "--junit \(report.path)",
            runningStep: "sleep 30.0 s"
        )
        kill(runner, signal)
        let pane = try await tmux.waitForPane("the summary after the signal") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=1")
        #expect(pane.contains("Run cancelled."), "\(pane)")
        #expect(pane.contains("1 passed, 1 failed, 1 skipped"), "\(pane)")
        let after = try await tmux.stty(into: "after")
        #expect(after == before, "stty -a is unchanged")
        let xml = try XMLDocument(contentsOf: report, options: [])
        #expect(try xml.nodes(forXPath: "//testcase").count == 3)
        // A worker that said it ended is gone a few milliseconds later (the kernel takes it down; it runs nothing).
        #expect(await eventually { workers.allSatisfy(ProcessList.hasEnded) }, "no worker outlives the run")
    }

    @Test func aSecondSignalQuitsAtOnceRestoringTheTerminalAndKillingTheWorker() async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let before = try await tmux.stty(into: "before")
        let (runner, workers) = try await tmux.startFaults(
            """
            scenarios:
              - scenario: Stuck
                steps: [ignore cancellation]
            """,
            redirect: "2>\(tmux.folder.path)/stderr.txt",
            runningStep: "ignore cancellation"
        )
        kill(runner, SIGTERM)
        kill(runner, SIGHUP)
        let pane = try await tmux.waitForPane("the exit status") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=130", "\(pane)")
        let stderr = try String(contentsOfFile: tmux.folder.path + "/stderr.txt", encoding: .utf8)
        #expect(stderr.contains("Interrupted twice: quitting without a summary."), "\(stderr)")
        let after = try await tmux.stty(into: "after")
        #expect(after == before, "stty -a is unchanged")
        #expect(await eventually { workers.allSatisfy(ProcessList.hasEnded) }, "no worker outlives the runner")
    }

    /// Without TERM (or with one terminfo does not know) the run goes headless and says so, instead of
    /// ncurses' "Error opening terminal" and exit 1 with nothing run.
    @Test(arguments: ["env -u TERM", "env TERM=no-such-terminal"])
    func anUnknownTerminalRunsHeadless(_ environment: String) async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let binary = try #require(Tmux.scenarioRunBinary, "build scenario-run first: swift build --build-tests")
        tmux.type("\(environment) \(binary) Scenarios/reviews.yml; echo EXIT=$?")
        tmux.press("Enter")
        let pane = try await tmux.waitForPane("the headless run to end") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=0", "\(pane)")
        #expect(pane.contains("running headless, as with --ci."), "\(pane)")
        #expect(pane.contains("passed, 0 failed"), "\(pane)")
        #expect(!pane.contains("Error opening terminal"))
    }

    /// Wide (CJK) characters take two columns and controls are shown in caret notation: every row of the
    /// tree pane still ends at its border, and the selection leaves no stale cells when it moves.
    @Test func wideCharactersAndControlsKeepThePanesInPlace() async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let binary = try #require(Tmux.scenarioRunBinary, "build scenario-run first: swift build --build-tests")
        let file = tmux.folder.appendingPathComponent("wide.yml")
        try #"""
        feature: 幅の広い文字
        scenarios:
          - scenario: 予約を確認する予約を確認する予約を確認する予約を確認する
            steps: [succeed]
          - scenario: "back\bspace and \e[2J clear"
            steps: [succeed]
          - scenario: Plain
            steps: [succeed]
        """#.write(to: file, atomically: true, encoding: .utf8)
        tmux.type("\(binary) \(file.path); echo EXIT=$?")
        tmux.press("Enter")
        var pane = try await tmux.waitForPane("the run to finish") { $0.contains("3/3") && $0.contains("finished") }
        Self.expectBordersAligned(pane)
        #expect(pane.contains("back^Hspace and ^[[2J clear"), "\(pane)")
        for key in ["Up", "Up", "Down", "Up", "Down", "Down"] {
            tmux.press(key)
            pane = tmux.capture()
            Self.expectBordersAligned(pane)
        }
        tmux.press("q")
        pane = try await tmux.waitForPane("the summary") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=0")
        #expect(pane.contains("back^Hspace and ^[[2J clear"), "the summary shows it the same way: \(pane)")
    }

    /// The tree pane's right border (`│` after the left pane) sits in the same column on every row that
    /// has one: a wide character counted as one column pushed it right.
    static func expectBordersAligned(_ pane: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var columns: Set<Int> = []
        for line in pane.split(separator: "\n").dropFirst() {
            var column = 0
            var borders = 0
            for character in line {
                if character == "│" {
                    borders += 1
                    if borders == 2 {
                        columns.insert(column)
                        break
                    }
                }
                // CJK, Hangul and fullwidth forms take two columns in the terminal (tmux counts so too).
                let value = character.unicodeScalars.first?.value ?? 0
                let ranges: [ClosedRange<UInt32>] = [
                    0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
                ]
                let wide = ranges.contains { $0.contains(value) }
                column += wide ? 2 : 1
            }
        }
        #expect(
            columns.count <= 1,
            "the tree pane's border in columns \(columns.sorted()): \(pane)",
            sourceLocation: sourceLocation
        )
    }

    @Test func aCrashingScenarioFailsInTheLiveRunnerAndTheRunGoesOn() async throws {
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let binary = try Tmux.faultsBinary()
        let before = try await tmux.stty(into: "before")
        let scenarios = tmux.folder.appendingPathComponent("crash.yml")
        try """
        feature: Crashing
        scenarios:
          - scenario: Crashes in app code
            steps:
              - crash: boom in the live runner
          - scenario: Runs after the crash
            steps: [succeed]
        """.write(to: scenarios, atomically: true, encoding: .utf8)
        tmux.type("\(binary) \(scenarios.path); echo EXIT=$?")
        tmux.press("Enter")
        var pane = try await tmux.waitForPane("the run to finish") { $0.contains("2/2") && $0.contains("finished") }
        #expect(pane.contains("2/2  1 failed"))
        tmux.press("Up")
        pane = try await tmux.waitForPane("the crashed scenario's detail") {
            $0.contains("Steps: Crashes in app code") && $0.contains("Detail")
        }
        #expect(
            pane.contains("crashed: Fatal") && pane.contains("(signal 4, SIGILL)"),
            "the detail pane shows the crash: \(pane)"
        )
        tmux.press("q")
        pane = try await tmux.waitForPane("the summary after quitting") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=1")
        #expect(pane.contains("1 passed, 1 failed"))
        let after = try await tmux.stty(into: "after")
        #expect(after == before, "stty -a is unchanged")
    }
}

/// The example package's own executable (`Examples/LibraryLoans`, a second app that depends on this package
/// by path) in the live runner: what a downstream app gets from `ScenarioRun.main(app:)`.
///
/// The example package builds in its own `.build`; `.ci/run` builds it first and sets
/// `SCENARIO_RUN_REQUIRE_EXAMPLE=1`, so there a missing binary fails instead of skipping.
@Suite(
    .serialized,
    .enabled(if: Tmux.executable != nil, "tmux is not installed: the end-to-end TUI tests need it"),
    .enabled(
        if: ExampleApp.binary != nil || ExampleApp.required,
        "build the example first: (cd Examples/LibraryLoans && swift build)"
    )
)
struct ExampleAppTmuxTests {
    @Test func theExampleAppsOwnExecutableRunsItsScenariosInTheLiveRunner() async throws {
        let binary = try #require(ExampleApp.binary, "Examples/LibraryLoans/.build/debug/library-loans is not built")
        let features = try ExampleApp.defaultFeatures()
        try #require(features.count >= 3, "the example's scenario files name their features")
        let tmux = try await Tmux()
        defer { tmux.kill() }
        let before = try await tmux.stty(into: "before")

        tmux.type("cd \(ExampleApp.root.path) && \(binary); echo EXIT=$?")
        tmux.press("Enter")
        var pane = try await tmux.waitForPane("the example's run to finish") {
            Tmux.statusLine($0).contains("finished") && $0.contains("┘")
        }
        let status = Tmux.statusLine(pane)
        #expect(status.contains(" 0 failed"), "\(status)")
        // The tree keeps the last scenario in view, so not every feature fits the pane: some must show.
        let shown = features.filter { pane.contains(String($0.prefix(15))) }
        #expect(!shown.isEmpty, "the scenario tree shows the example's features \(features)")
        #expect(!pane.contains("Review"), "nothing of the demo app appears")

        tmux.press("q")
        pane = try await tmux.waitForPane("the summary after quitting") { Tmux.exitStatus(in: $0) != nil }
        #expect(Tmux.exitStatus(in: pane) == "EXIT=0")
        #expect(pane.contains(" passed, 0 failed"))
        tmux.type("cd \(Tmux.repositoryRoot.path)")
        tmux.press("Enter")
        let after = try await tmux.stty(into: "after")
        #expect(after == before, "stty -a is unchanged after quitting")
    }
}

/// Where the example package and its executable are.
enum ExampleApp {
    static let root = Tmux.repositoryRoot.appendingPathComponent("Examples/LibraryLoans")

    static var binary: String? {
        let path = root.appendingPathComponent(".build/debug/library-loans").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// CI builds the example before the tests, so there the test must run.
    static var required: Bool { ProcessInfo.processInfo.environment["SCENARIO_RUN_REQUIRE_EXAMPLE"] == "1" }

    /// The `feature:` names of the default scenario files (not those of the deliberately failing ones).
    static func defaultFeatures() throws -> [String] {
        let folder = root.appendingPathComponent("Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yml") }
            .sorted()
        return try files.compactMap { file in
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let line = text.split(separator: "\n").first { $0.hasPrefix("feature:") }
            return line.map { $0.dropFirst("feature:".count).trimmingCharacters(in: .whitespaces) }
        }
    }
}

/// A private tmux server (its own socket) with one 100×30 session running a plain shell in the repo root.
final class Tmux {
    static let executable: String? = ExternalTool.path("tmux") ?? (ExternalTool.required ? "tmux" : nil)

    /// The package root, from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The built executable, next to the test bundle (as argument-parser's AssertExecuteCommand finds it),
    /// else in `.build/debug`.
    /// The example app's scenario-run plus steps that misbehave (Tests/FaultApp), built beside scenario-run.
    static func faultsBinary() throws -> String {
        let runBinary = try #require(scenarioRunBinary, "build scenario-run first: swift build --build-tests")
        return URL(fileURLWithPath: runBinary).deletingLastPathComponent().appendingPathComponent(
            "scenario-run-faults"
        ).path
    }

    static var scenarioRunBinary: String? {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["SCENARIO_RUN_BINARY"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("scenario-run"))
            }
        #else
            candidates.append(Bundle.main.bundleURL.appendingPathComponent("scenario-run"))
            candidates.append(
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                    "scenario-run"
                )
            )
        #endif
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug/scenario-run"))
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let socket = "scenario-run-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let folder: URL

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try run([
            "new-session", "-d", "-s", "main", "-x", "100", "-y", "30", "-c", Self.repositoryRoot.path,
            "-e", "LANG=C.UTF-8", "-e", "LC_ALL=C.UTF-8", "-e", "PS1=$ ",
            "bash --noprofile --norc",
        ])
        _ = try run(["set-option", "-t", "main", "status", "off"])
        _ = try await waitForPane("the shell prompt") { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    /// Runs one tmux command and returns its output.
    ///
    /// Spawned with `posix_spawn` and a clean signal mask rather than `Process`: the tmux server that the
    /// first command daemonizes would inherit `Process`'s monitoring descriptors and signal state.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let outputFile = folder.appendingPathComponent("tmux-output-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let argv = [Self.executable ?? "tmux", "-L", socket, "-f", "/dev/null"] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw TmuxTimeout(description: "spawning tmux (error \(spawned))", pane: "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    /// `EXIT=N` as the shell printed it (not the `echo EXIT=$?` of the command line).
    /// The pids of processes whose command line contains `text`.
    /// Writes `yaml` to `faults.yml` in the folder, starts `scenario-run-faults OPTIONS FILE REDIRECT` in the
    /// pane and waits until `runningStep` shows as running; returns the runner's pid and its workers then.
    func startFaults(
        _ yaml: String,
        options: String = "",
        redirect: String = "",
        runningStep: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (runner: pid_t, workers: [pid_t]) {
        let binary = try Self.faultsBinary()
        let scenarios = folder.appendingPathComponent("faults.yml")
        try yaml.write(to: scenarios, atomically: true, encoding: .utf8)
        let arguments = options.isEmpty ? scenarios.path : "\(options) \(scenarios.path)"
        type("\(binary) \(arguments) \(redirect); echo EXIT=$?")
        press("Enter")
        _ = try await waitForPane("the step '\(runningStep)' running") {
            $0.contains(runningStep) && $0.contains("running")
        }
        let runner = try #require(
            Self.pids(matching: "scenario-run-faults \(arguments)").first,
            "the runner's pid",
            sourceLocation: sourceLocation
        )
        let workers = ProcessList.children(of: runner)
        #expect(!workers.isEmpty, "the live runner drives a worker process", sourceLocation: sourceLocation)
        return (runner, workers)
    }

    static func pids(matching text: String) -> [pid_t] {
        ProcessList.pids(["-f", text])
    }

    static func exitStatus(in pane: String) -> String? {
        pane.range(of: #"EXIT=[0-9]+"#, options: .regularExpression).map { String(pane[$0]) }
    }

    /// The first line of a pane: the runner's status line.
    static func statusLine(_ pane: String) -> String {
        String(pane.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    /// Types text literally.
    func type(_ text: String) {
        _ = try? run(["send-keys", "-t", "main", "-l", text])
    }

    /// Presses a key by tmux name (`Enter`, `C-c`, `Down`, `q`).
    func press(_ key: String) {
        _ = try? run(["send-keys", "-t", "main", key])
    }

    func capture() -> String {
        (try? run(["capture-pane", "-p", "-t", "main"])) ?? ""
    }

    /// Polls the pane until `condition` holds; throws with the last pane after `timeout`.
    @discardableResult
    func waitForPane(_ description: String, timeout: Duration = .seconds(60), _ condition: (String) -> Bool)
        async throws -> String
    {
        var pane = ""
        try await poll(description, timeout: timeout) {
            pane = capture()
            return condition(pane)
        }
        return pane
    }

    /// Checks `condition` every 20 ms (the polling interval, not a wait for the work itself) until it
    /// holds; throws with the current pane after `timeout`. Sleeps, never blocks: a test thread blocked for
    /// a whole live run starved the timing-sensitive tests running meanwhile on the other one.
    private func poll(_ description: String, timeout: Duration, _ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition() {
            guard clock.now < deadline else { throw TmuxTimeout(description: description, pane: capture()) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `stty -a` of the pane's terminal, written by the shell into a file and read back.
    func stty(into name: String) async throws -> String {
        let file = folder.appendingPathComponent("stty-\(name).txt")
        let done = folder.appendingPathComponent("stty-\(name).done")
        type("stty -a > \(file.path); touch \(done.path)")
        press("Enter")
        try await poll("stty -a", timeout: .seconds(20)) { FileManager.default.fileExists(atPath: done.path) }
        _ = try? run(["send-keys", "-t", "main", "clear", "Enter"])
        return try String(contentsOf: file, encoding: .utf8)
    }

    func kill() {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
        // tmux leaves the socket file of a killed server behind.
        let socketFolder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(socketFolder)/tmux-\(getuid())/\(socket)")
    }
}

struct TmuxTimeout: Error, CustomStringConvertible {
    var description: String
    var pane: String

    init(description: String, pane: String) {
        self.description = "Timed out waiting for \(description). The pane:\n\(pane)"
        self.pane = pane
    }
}
