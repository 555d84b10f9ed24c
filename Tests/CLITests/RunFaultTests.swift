import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Faults of a run (Faults v2): numbers without bounds, a low open-file limit, long event lines, a
/// signal during a step that ignores cancellation, times and state lost, names that move the cursor.
@Suite(.serialized)
struct RunFaultTests {
    static let two = "scenarios:\n  - scenario: A\n    steps: [succeed]\n  - scenario: B\n    steps: [succeed]\n"

    // MARK: Numbers

    @Test func jobsOverAMillionIsAUsageError() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.two])
        let result = try await CLI.run(["--ci", "--jobs", "1000001"], directory: project)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--jobs takes how many scenarios run at once, from 1 to 1,000,000."))
    }

    @Test func jobsAreCappedAtTheScenariosAndSaidSo() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.two])
        let result = try await CLI.run(["--ci", "--jobs", "1000000"], directory: project)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: --jobs 1,000,000: 2 workers (2 scenarios).\n"), "\(result.stderr)")
        #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    /// Workers start while the files load; once the run knows it has one scenario, the others end at
    /// once — not left to load and wait — and their ending is no failure. (The scenario waits 20 s so that
    /// it is surely still waiting when the workers are counted, even on a loaded machine.)
    @Test func workersBeyondTheScenariosEndBeforeTheRun() async throws {
        let project = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: Slow\n    steps: [{wait: 20}]\n"])
        let running = try CLI.Running(["--ci", "--jobs", "8"], directory: project, environment: [:])
        let noted = await eventually(timeout: .seconds(60)) { running.stderr.contains("note: --jobs 8: 1 worker") }
        #expect(noted, "\(running.stderr)")
        let oneLeft = await eventually(timeout: .seconds(15)) {
            ProcessList.children(of: running.process.processIdentifier).count == 1
        }
        #expect(oneLeft, "workers still alive: \(ProcessList.children(of: running.process.processIdentifier))")
        #expect(running.process.isRunning, "the scenario was still waiting")
        let result = await running.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: --jobs 8: 1 worker (1 scenario).\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("Worker process"), "\(result.stderr)")
        #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func jobsAreCappedAtFourPerCoreAndSaidSo() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let count = cores * 4 + 3
        // Each scenario lasts a second, so the workers are alive while `pgrep` looks: with `succeed`, a loaded
        // machine once took longer to start `pgrep` than the whole run took, and saw no worker at all.
        let body = (0..<count).map { "  - scenario: S\($0)\n    steps: [{ wait: 1 }]\n" }.joined()
        let project = try CLI.project(["Scenarios/a.yml": "scenarios:\n" + body])
        let running = try CLI.Running(["--ci", "--jobs", "500"], directory: project, environment: [:])
        var most = 0
        while running.process.isRunning {
            most = max(most, ProcessList.children(of: running.process.processIdentifier).count)
            _ = await eventually(timeout: .milliseconds(20)) { !running.process.isRunning }
        }
        let result = await running.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "note: --jobs 500: \(cores * 4) workers (at most 4 per core, \(cores) core\(cores == 1 ? "" : "s")).\n"
            ),
            "\(result.stderr)"
        )
        #expect(most > 0 && most <= cores * 4, "\(most) worker processes at once")
        #expect(result.stdout.hasSuffix("\(count) passed, 0 failed\n"))
    }

    /// A billion parts with timings: the parts past the scenarios are never allocated.
    @Test func aShardOfABillionPartsWithTimingsIsSmall() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.two])
        try ReportTargetTests.report().write(
            to: project.appendingPathComponent("times.xml"),
            atomically: true,
            encoding: .utf8
        )
        let result = try await BoundedRun.run(
            ["--ci", "--list", "--shard", "1/999999999", "--shard-timings", "times.xml"],
            directory: project
        )
        #expect(!result.crashed && !result.timedOut, "\(result.stderr.prefix(500))")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(BoundedRun.peakChildResidentBytes < 1 << 30)
    }

    // MARK: Open files

    /// At a low `ulimit -n` (soft and hard) the run fits its workers to it, runs in this process when not
    /// one fits, and refuses in words below what even that needs: no SIGILL, and a whole JUnit file
    /// whenever anything runs.
    @Test(arguments: [
        (12, "error: ulimit -n is 12; a run needs at least 16 open files (32 for a worker process).\n"),
        (
            20,
            "note: ulimit -n is 20, too few open files for a worker process (32 are needed): the scenarios run in this process, as with --in-process.\n"
        ),
        (36, "note: --jobs 4: 2 workers (ulimit -n is 36; each worker needs 4 open files).\n"),
        (64, "note: --jobs 4: 3 workers (3 scenarios).\n"),
    ])
    func aLowOpenFileLimitIsFittedNotACrash(_ limit: Int, _ said: String) async throws {
        let three = Self.two + "  - scenario: C\n    steps: [succeed]\n"
        let project = try CLI.project(["Scenarios/a.yml": three])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--nofile=\(limit)", "--", CLI.binary.path, "--ci", "--jobs", "4", "--junit", report.path],
            directory: project,
            executable: URL(fileURLWithPath: "/usr/bin/prlimit")
        )
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Signal 4"), "\(result.stderr)")
        #expect(result.stderr == said, "\(limit): \(result.stderr)")
        if limit < 16 {
            #expect(result.status == 2)
        } else {
            #expect(result.status == 0, "\(limit): \(result.stderr)")
            let cases = try #require(CLI.junitCases(report), "\(limit): a whole JUnit file")
            #expect(cases.failures.count == 3)
        }
    }

    // MARK: Long lines from workers

    /// A 4 MB failure reason comes through the worker's pipe in linear time: a worker run takes at most
    /// a few times what the same run takes in-process (the quadratic reading took 45 s against 0.44 s).
    @Test func aFourMegabyteReasonCrossesThePipeInLinearTime() async throws {
        let reason = String(repeating: "r", count: 4 * 1024 * 1024)
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: Long reason\n    steps:\n      - fail: \(reason)\n"
        ])
        let clock = ContinuousClock()
        var start = clock.now
        let inProcess = try await CLI.run(["--ci", "--in-process"], directory: project)
        let inProcessTime = clock.now - start
        start = clock.now
        let workers = try await CLI.run(["--ci"], directory: project)
        let workerTime = clock.now - start
        #expect(inProcess.status == 1 && workers.status == 1)
        #expect(workers.stdout.contains(reason), "the whole reason is reported")
        #expect(workerTime < inProcessTime * 4 + .seconds(5), "workers: \(workerTime), in-process: \(inProcessTime)")
    }

    // MARK: Signals

    /// SIGTERM while a step ignores cancellation (timeout 25 s): the run ends in a second or two, with
    /// the report whole, instead of waiting out the step's timeout.
    @Test func aSignalDuringAStepThatIgnoresCancellationEndsTheRunAtOnce() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": """
            scenarios:
              - scenario: Stuck
                steps:
                  - ignore cancellation after touching: started
              - scenario: Next
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let (running, workers) = try await CLI.startFaults(
            ["--ci", "--timeout", "100", "--junit", report.path],
            in: project
        )
        let clock = ContinuousClock()
        let signalled = clock.now
        kill(running.process.processIdentifier, SIGTERM)
        let result = await running.wait()
        let took = clock.now - signalled
        // Within 30 s, not the step's 100 s timeout: the grace period, then the process is ended.
        #expect(took < .seconds(30), "the run ended \(took) after SIGTERM")
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("Run cancelled; the step ignored cancellation. Its process was ended."),
            "\(result.stdout)"
        )
        let cases = try #require(CLI.junitCases(report), "a whole JUnit file")
        #expect(cases.failures.count == 2)
        #expect(cases.skipped.contains("Next"))
        #expect(await eventually { workers.allSatisfy { kill($0, 0) != 0 } }, "no worker outlives the run")
    }

    // MARK: Results

    /// A scenario ended by --scenario-timeout ran that long: the summary, JUnit and so --shard-timings
    /// say so (it was 0.000 s).
    @Test func aScenarioEndedByItsTimeoutIsReportedWithItsTime() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: Slow\n    steps:\n      - touch: started\n      - sleep: 30\n"
        ])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--ci", "--scenario-timeout", "2", "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("✗ Slow (") })
        let seconds = Double(line.dropFirst("✗ Slow (".count).prefix { $0 != " " }) ?? 0
        #expect(seconds >= 1.9 && seconds < 30, "\(line)")
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(!xml.contains(#"name="Slow" file="Scenarios/a.yml" time="0.000""#), "\(xml)")
        #expect(xml.contains(#"time="2."#) || xml.contains(#"time="3."#), "\(xml)")
    }

    /// Two runs in one folder at once keep each other's failures in last-failed.json.
    @Test func overlappingRunsKeepEachOthersFailures() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": """
            scenarios:
              - scenario: Slow failure
                steps:
                  - touch: started
                  - wait for file: quick-ended
                  - fail: slow
              - scenario: Quick failure
                steps:
                  - fail: quick
            """
        ])
        // The slow run's wait for the file has 100 s: the default 10 s step timeout was once reached while
        // the quick run started and ran on a loaded machine.
        let (slow, _) = try await CLI.startFaults(["--ci", "--timeout", "100", "--filter", "Slow"], in: project)
        let quick = try await CLI.run(["--ci", "--filter", "Quick"], directory: project, executable: CLI.faultsBinary)
        #expect(quick.status == 1)
        #expect(slow.process.isRunning, "the slow run ends after the quick one")
        // Only now does the slow run go on to its failure.
        _ = FileManager.default.createFile(atPath: project.appendingPathComponent("quick-ended").path, contents: nil)
        _ = await slow.wait()
        #expect(try CLI.failedNames(in: project) == ["Quick failure", "Slow failure"])
    }

    @Test func theKeptStoresCommandQuotesItsPath() async throws {
        let project = try CLI.project(["Scenarios/one.yml": "scenarios:\n  - scenario: One\n    steps: [succeed]\n"])
        let odd = project.appendingPathComponent("a;echo x'y")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: project.appendingPathComponent("Scenarios"),
            to: odd.appendingPathComponent("Scenarios")
        )
        try FileManager.default.moveItem(
            at: project.appendingPathComponent("Fixtures"),
            to: odd.appendingPathComponent("Fixtures")
        )
        let result = try await CLI.run(["--ci"], directory: odd, environment: ["KIF_SKIP_TEAR_DOWN": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let kept = odd.appendingPathComponent(".scenario-run/last-store.sqlite").path
        let quoted = "'" + kept.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        #expect(result.stdout.contains("  sqlite3 \(quoted) 'select * from \""), "\(result.stdout)")
    }

    // MARK: The terminal

    /// Names and reasons that hold terminal controls are shown, not obeyed: OSC (the window title),
    /// CSI (clear, move), backspace, the 8-bit CSI.
    @Test func controlCharactersInNamesAndReasonsAreShownNotSent() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": #"""
            scenarios:
              - scenario: "Title\e]0;pwned\aend"
                steps:
                  - fail: "clear\e[2Jhere\bthere\u009B1m"
            """#
        ])
        let result = try await CLI.run(["--ci"], directory: project)
        #expect(result.status == 1)
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{08}") && !result.stdout.contains("\u{9B}"))
        #expect(result.stdout.contains("✗ Title^[]0;pwned^Gend ("), "\(result.stdout)")
        #expect(result.stdout.contains("      clear^[[2Jhere^Hthere~[1m\n"), "\(result.stdout)")
    }
}
