import Foundation
import TestSupport
import Testing

/// `--repeat` and `--retries` on the built binary (with the fault app's `fail times: N` step), in one
/// worker and in two; the JUnit report read by a real JUnit consumer (Python's `junitparser`, which
/// `.ci/run` installs).
@Suite(.serialized)
struct RepeatAndRetryCLITests {
    static let scenarios = """
        scenarios:
          - scenario: Flaky once
            steps:
              - fail times: 1
          - scenario: Always fails
            steps:
              - fail: always
          - scenario: Steady
            steps: [succeed]
        """

    /// What `junitparser` (xunit2: Surefire's rerun elements) reads in a report, as `name: passed flaky reruns`.
    static func junitparser(_ report: URL) throws -> String? {
        let script = """
            import sys
            from junitparser.xunit2 import JUnitXml
            for suite in JUnitXml.fromfile(sys.argv[1]):
                for case in suite:
                    print(f"{case.name}: passed={case.is_passed} flaky={len(case.flaky_failures())} reruns={len(case.rerun_failures())}")
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: ExternalTool.path("python3") ?? "/usr/bin/python3")
        python.arguments = ["-c", script, report.path]
        let output = Pipe()
        python.standardOutput = output
        python.standardError = FileHandle.nullDevice
        try python.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        return python.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    @Test(arguments: ["1", "2"])
    func retriesMakeAFlakyScenarioPassAndReportIt(jobs: String) async throws {
        let project = try CLI.project(["Scenarios/flaky.yml": Self.scenarios])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--ci", "--jobs", jobs, "--retries", "2", "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1, "one scenario fails on every try")
        #expect(result.stdout.contains("✓ Flaky once ("), "\(result.stdout)")
        #expect(result.stdout.contains(", 2 tries)"))
        #expect(result.stdout.contains("✗ Always fails (") && result.stdout.contains(", 3 tries)"))
        #expect(result.stdout.hasSuffix("\nFLAKY 1/2 Flaky once\n2 passed, 1 failed\n"), "\(result.stdout)")

        // A flaky scenario counts as passed for --rerun-failed.
        #expect(try CLI.failedNames(in: project) == ["Always fails"])
    }

    @Test(
        .enabled(
            if: ExternalTool.pythonModuleAvailable("junitparser"),
            "python3's junitparser is not installed (pip install junitparser): the JUnit consumer test needs it"
        )
    )
    func aRealJUnitConsumerReadsFlakyAndRerunFailures() async throws {
        let project = try CLI.project(["Scenarios/flaky.yml": Self.scenarios])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--ci", "--retries", "2", "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1, "one scenario fails on every try")
        let read = try #require(
            try Self.junitparser(report),
            "python3 with junitparser reads the report (pip install junitparser)"
        )
        #expect(read.contains("Flaky once: passed=True flaky=1 reruns=0"), "\(read)")
        #expect(read.contains("Always fails: passed=False flaky=0 reruns=2"), "\(read)")
        #expect(read.contains("Steady: passed=True flaky=0 reruns=0"), "\(read)")
    }

    @Test func repeatRunsEachScenarioNTimesAndAFailingRepetitionFailsIt() async throws {
        let project = try CLI.project([
            "Scenarios/repeat.yml": """
            scenarios:
              - scenario: Fails its first run
                steps:
                  - fail times: 1
              - scenario: Steady
                steps: [succeed]
            """
        ])
        let plain = try await CLI.run(["--ci", "--repeat", "3"], directory: project, executable: CLI.faultsBinary)
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("✗ Fails its first run ("), "the first repetition fails it: \(plain.stdout)")
        #expect(plain.stdout.contains("✓ Steady (") && plain.stdout.contains(", 3 repetitions)"), "\(plain.stdout)")
        #expect(plain.stdout.hasSuffix("1 passed, 1 failed\n"))

        // With a retry, the failing first repetition is tried again and the three repetitions pass.
        let retried = try await CLI.run(
            ["--ci", "--repeat", "3", "--retries", "1"],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(retried.status == 0)
        #expect(retried.stdout.hasSuffix("\nFLAKY 1/4 Fails its first run\n2 passed, 0 failed\n"), "\(retried.stdout)")
    }

    /// `--repeat 15` says `15 repetitions`, not tries; a failing repetition is named in the output and in
    /// the JUnit failure, with one worker and two.
    @Test(arguments: ["1", "2"])
    func repeatNamesTheRepetitionThatFailed(jobs: String) async throws {
        let project = try CLI.project([
            "Scenarios/repeat.yml": """
            scenarios:
              - scenario: Fails its seventh run
                steps:
                  - fail on run: 7
              - scenario: Steady
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            ["--ci", "--jobs", jobs, "--repeat", "15", "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1)
        #expect(result.stdout.contains(", failed on repetition 7 of 15)\n"), "\(result.stdout)")
        #expect(
            result.stdout.contains("✓ Steady (") && result.stdout.contains(", 15 repetitions)\n"),
            "\(result.stdout)"
        )
        #expect(!result.stdout.contains("tries"), "\(result.stdout)")
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(
            xml.contains(#"<failure message="Failed on repetition 7 of 15: Run 7 of this step fails on purpose.">"#),
            "\(xml)"
        )
    }

    @Test func outOfRangeCountsAreUsageErrors() async throws {
        for arguments in [["--repeat", "0"], ["--repeat", "10001"], ["--retries=-1"], ["--retries", "101"]] {
            let result = try await CLI.run(["--ci"] + arguments)
            #expect(result.status == 2, "\(arguments)")
        }
    }
}
