import Foundation
import TestSupport
import Testing

/// A step that blocks its thread (`Thread.sleep` in app code: a hung main thread) with `timeout: 1`: with
/// workers its process is ended at the timeout plus the grace period and the step fails saying so, at
/// its line, and the run goes on with a new worker; in-process it fails when it returns, with how long
/// it took; Ctrl-C during it still ends the run, with the report whole.
@Suite(.serialized)
struct BlockingStepTests {
    static let blocking = """
        scenarios:
          - scenario: Blocks
            steps:
              - succeed
              - block thread: 30
                timeout: 1
          - scenario: After
            steps: [succeed]
        """

    @Test(arguments: ["1", "2"])
    func withWorkersTheBlockedProcessIsEndedAndTheStepFails(jobs: String) async throws {
        let project = try CLI.project(["Scenarios/blocking.yml": Self.blocking])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--ci", "--jobs", jobs, "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        let reason =
            "Step 'block thread 30.0 s' blocked its thread for longer than its 1.0 s timeout and the 1.0 s "
            + "grace period; its process was ended."
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("✗ Blocks ("), "\(result.stdout)")
        #expect(result.stdout.contains("      \(reason)\n      at Scenarios/blocking.yml:5\n"), "\(result.stdout)")
        #expect(result.stdout.contains("✓ After ("), "a new worker runs the rest: \(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
        #expect(!result.stderr.contains("error: Worker"), "\(result.stderr)")
        let cases = try #require(CLI.junitCases(report))
        #expect(cases.failures["Blocks"] == .some(reason))
        #expect(cases.failures["After"] == .some(nil))
    }

    @Test func inProcessTheStepFailsWhenItReturnsWithItsRealDuration() async throws {
        let project = try CLI.project([
            "Scenarios/blocking.yml": Self.blocking.replacingOccurrences(
                of: "block thread: 30",
                with: "block thread: 3"
            )
        ])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--ci", "--in-process", "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let reason = try #require(lines.first { $0.contains("Step 'block thread 3.0 s' took ") }, "\(result.stdout)")
        #expect(reason.hasSuffix(" s, past its 1.0 s timeout; it blocked its thread, so the timeout could not end it."))
        let took = Double(reason.split(separator: " ").dropFirst(6).first ?? "") ?? 0
        #expect(took >= 3, "the real duration: \(reason)")
        #expect(result.stdout.contains("at Scenarios/blocking.yml:5"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
        let cases = try #require(CLI.junitCases(report))
        #expect(cases.failures["Blocks"] != .some(nil) && cases.failures["After"] == .some(nil))
    }

    /// Ctrl-C while the worker's step blocks (its timeout a minute away): the worker cannot see the
    /// cancellation, so it is ended a grace period later; the run ends, cancelled, report complete — within
    /// 10 s of the signal (about 1.6 s on an idle machine), far from the step's 60 s timeout it must not wait
    /// for.
    @Test func ctrlCDuringABlockedStepEndsTheRunWithItsReport() async throws {
        let project = try CLI.project([
            "Scenarios/blocking.yml": """
            scenarios:
              - scenario: Blocks
                steps:
                  - block thread: { seconds: 600, touching: started }
                    timeout: 60
              - scenario: Never
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let (running, workers) = try await CLI.startFaults(["--ci", "--junit", report.path], in: project)
        #expect(workers.count == 1)
        let clock = ContinuousClock()
        let signalled = clock.now
        kill(running.process.processIdentifier, SIGINT)
        // Within 30 s, not the step's 60 s timeout (a loaded machine once needs more than 10 s to end the run).
        let ended = await running.ended(within: .seconds(30))
        let took = clock.now - signalled
        #expect(ended && took < .seconds(30), "the run ended \(took) after Ctrl-C, not within 30 s")
        let result = await running.wait()
        let reason =
            "Run cancelled; step 'block thread 600.0 s' blocked its thread and ignored cancellation. Its process was ended."
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Cancelling"), "\(result.stderr)")
        #expect(result.stdout.contains("      \(reason)\n      at Scenarios/blocking.yml:4\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("Run cancelled.\n0 passed, 1 failed, 1 skipped\n"), "\(result.stdout)")
        let cases = try #require(CLI.junitCases(report), "complete, well-formed JUnit")
        #expect(cases.failures["Blocks"] == .some(reason))
        #expect(cases.skipped.contains("Never"))
        #expect(await eventually { workers.allSatisfy(ProcessList.hasEnded) }, "no worker outlives the run")
    }

    /// In one process, a step that ignores its cancellation — it loops on `try? await Task.sleep(…)`, which
    /// throws at once when cancelled, so it never suspends again — is left running at its timeout and the
    /// run goes on: an app's code goes back through the event loop's queue at every `await` (`AppCode`),
    /// so the runner's timer, the next scenario and the signal handler still get the loop's one thread.
    /// Before that, running every job as the generic executor hung here.
    @Test func inProcessAStepThatIgnoresCancellationIsLeftAndTheRunGoesOn() async throws {
        let project = try CLI.project([
            "Scenarios/stuck.yml": """
            scenarios:
              - scenario: Stuck
                steps:
                  - ignore cancellation:
                    timeout: 1
              - scenario: After
                steps: [succeed]
            """
        ])
        let running = try CLI.Running(
            ["--ci", "--in-process"],
            directory: project,
            environment: [:],
            executable: CLI.faultsBinary
        )
        #expect(await running.ended(within: .seconds(60)), "the run did not end within 60 s")
        let result = await running.wait()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout.contains("      Did not finish within 1.0 s and ignored cancellation.\n"),
            "\(result.stdout)"
        )
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
    }

    /// In one process, an app's set-up or tear-down hook that ignores its cancellation is left running at
    /// the step's timeout and the run goes on: the default set-up and tear-down run as the run's own work
    /// (no trip through the loop's queue per `await`), but the app's hooks in them as an app's code
    /// (`AppCode.run`), so the timer still gets the loop's one thread. Run as the run's own work, such a
    /// hook hangs the run here.
    @Test(arguments: ["set-up", "tear-down"])
    func inProcessAHookThatIgnoresCancellationIsLeftAndTheRunGoesOn(hook: String) async throws {
        let project = try CLI.project([
            "Scenarios/stuck.yml": """
            scenarios:
              - scenario: Stuck
                steps: [succeed]
              - scenario: After
                steps: [succeed]
            """
        ])
        let running = try CLI.Running(
            ["--ci", "--in-process", "--timeout", "1"],
            directory: project,
            environment: ["SCENARIO_RUN_FAULTS_STUCK_HOOK": hook],
            executable: CLI.faultsBinary
        )
        #expect(await running.ended(within: .seconds(60)), "the run did not end within 60 s")
        let result = await running.wait()
        #expect(result.status == 1, "\(result.stderr)")
        let step = hook == "set-up" ? "set up the test environment" : "tear down the test environment"
        #expect(result.stdout.contains("✗ Stuck ("), "\(result.stdout)")
        #expect(
            result.stdout.contains("      Did not finish within 1.0 s and ignored cancellation.\n"),
            "\(result.stdout)"
        )
        #expect(result.stdout.contains(step), "the failing step is named: \(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
    }

    /// SIGTERM in one process while a step ignores its cancellation: the run ends after the grace
    /// period, its report whole, instead of waiting out the step's 100 s timeout.
    @Test func inProcessASignalDuringAStepThatIgnoresCancellationEndsTheRun() async throws {
        let project = try CLI.project([
            "Scenarios/stuck.yml": """
            scenarios:
              - scenario: Stuck
                steps:
                  - ignore cancellation after touching: started
              - scenario: Never
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let running = try CLI.Running(
            ["--ci", "--in-process", "--timeout", "100", "--junit", report.path],
            directory: project,
            environment: [:],
            executable: CLI.faultsBinary
        )
        let started = project.appendingPathComponent("started").path
        #expect(await eventually { FileManager.default.fileExists(atPath: started) }, "the step started")
        kill(running.process.processIdentifier, SIGTERM)
        #expect(await running.ended(within: .seconds(30)), "the run did not end within 30 s of SIGTERM")
        let result = await running.wait()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("Run cancelled; the step ignored cancellation."), "\(result.stdout)")
        let cases = try #require(CLI.junitCases(report), "complete, well-formed JUnit")
        #expect(cases.failures.count == 2)
        #expect(cases.failures["Stuck"] != .some(nil))
        #expect(cases.skipped.contains("Never"))
    }

    /// `kill -9` of the parent while its worker blocks: the worker ends too (it sees its channel close),
    /// and nothing of the run is left in /dev/shm, during the run or after it.
    @Test func killingTheParentLeavesNoWorkerAndNoFile() async throws {
        let project = try CLI.project([
            "Scenarios/blocking.yml": """
            scenarios:
              - scenario: Blocks
                steps:
                  - block thread: { seconds: 600, touching: started }
                    timeout: 700
            """
        ])
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
        let (running, workers) = try await CLI.startFaults(["--ci"], in: project)
        #expect(workers.count == 1)
        let pid = running.process.processIdentifier
        #expect(CLI.boardFiles(of: pid).isEmpty, "the progress board has no name")
        kill(pid, SIGKILL)
        _ = await running.wait()
        #expect(
            await eventually { workers.allSatisfy(ProcessList.hasEnded) },
            "the blocked worker ended with its parent"
        )
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
        #expect(
            after.subtracting(before).filter { $0.hasPrefix("scenario-run") }.isEmpty,
            "\(after.subtracting(before))"
        )
        #expect(CLI.boardFiles(of: pid).isEmpty)
    }

    /// A line app code prints that reads as a run event (`finished … passed`) is the scenario's log, not
    /// an event: the failing scenario fails.
    @Test(arguments: ["1", "2"])
    func anEventPrintedByAppCodeIsLoggedNotBelieved(jobs: String) async throws {
        let forged = #"["finished","Scenarios/forged.yml","Forges a pass","passed",1000]"#
        let project = try CLI.project([
            "Scenarios/forged.yml": """
            scenarios:
              - scenario: Forges a pass
                steps:
                  - print line: '\(forged)'
                  - fail: it fails all the same
              - scenario: Passes
                steps: [succeed]
            """
        ])
        let result = try await CLI.run(["--ci", "--jobs", jobs], directory: project, executable: CLI.faultsBinary)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("✗ Forges a pass ("), "\(result.stdout)")
        #expect(result.stdout.contains("    log: \(forged)\n"), "what the app printed is its log: \(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
    }

    /// A scenario ended by `--scenario-timeout` is reported at the line of the step it was in.
    @Test func aScenarioTimeoutNamesTheStepsLine() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: Slow\n    steps:\n      - touch: started\n      - sleep: 30\n"
        ])
        let result = try await CLI.run(
            ["--ci", "--scenario-timeout", "2"],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1)
        let reason = "Did not finish within 2.0 s (--scenario-timeout); its process was ended."
        #expect(
            result.stdout.contains("    ✗ sleep 30.0 s\n      \(reason)\n      at Scenarios/a.yml:5\n"),
            "\(result.stdout)"
        )
    }

    /// `--in-process`: app code that calls `exit(0)` fails its scenario; the rest are skipped, the summary
    /// printed, the JUnit file written, and the exit status is 1.
    @Test func inProcessAnExitByAppCodeFailsTheRun() async throws {
        let project = try CLI.project([
            "Scenarios/exits.yml": """
            scenarios:
              - scenario: Before
                steps: [succeed]
              - scenario: Exits
                steps:
                  - succeed
                  - exit process: 0
              - scenario: After
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--ci", "--in-process", "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        let reason = "App code called exit(0) during step 'exit process 0'."
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("✓ Before ("), "\(result.stdout)")
        #expect(result.stdout.contains("      \(reason)\n      at Scenarios/exits.yml:7\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed, 1 skipped\n"), "\(result.stdout)")
        let cases = try #require(CLI.junitCases(report), "the JUnit report is written")
        #expect(cases.failures["Exits"] == .some(reason))
        #expect(cases.failures["Before"] == .some(nil))
        #expect(cases.skipped.contains("After"))
    }
}
