import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension CLI {
    /// `scenario-run-faults`: the example app's scenario-run plus steps that crash, exit, raise signals,
    /// never return, sleep and touch files (Tests/FaultApp).
    static var faultsBinary: URL { binary.deletingLastPathComponent().appendingPathComponent("scenario-run-faults") }

    /// Starts `scenario-run-faults` with `arguments` in `project` and waits until a step of it touches
    /// `started` in the project; returns the run and the worker processes it has then.
    static func startFaults(
        _ arguments: [String],
        in project: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (running: Running, workers: [pid_t]) {
        let marker = project.appendingPathComponent("started")
        let running = try Running(arguments, directory: project, environment: [:], executable: faultsBinary)
        #expect(
            await eventually { FileManager.default.fileExists(atPath: marker.path) },
            "a step touched 'started'",
            sourceLocation: sourceLocation
        )
        return (running, ProcessList.children(of: running.process.processIdentifier))
    }

    /// The progress-board files a runner with this pid left in /dev/shm (there should be none).
    static func boardFiles(of pid: pid_t) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        return names.filter { $0.hasPrefix("scenario-run-board-\(pid)-") }
    }

    /// The `testcase` elements of a JUnit file: name → failure message (`nil` when it passed), and
    /// which were skipped; `nil` when the file is not well-formed XML.
    static func junitCases(_ url: URL) -> (failures: [String: String?], skipped: Set<String>)? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        final class Reader: NSObject, XMLParserDelegate {
            var failures: [String: String?] = [:]
            var skipped: Set<String> = []
            var current: String?
            func parser(
                _ parser: XMLParser,
                didStartElement name: String,
                namespaceURI: String?,
                qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                switch name {
                case "testcase":
                    current = attributes["name"]
                    if let current { failures[current] = .some(nil) }
                case "failure": if let current { failures[current] = .some(attributes["message"] ?? "") }
                case "skipped": if let current { skipped.insert(current) }
                default: break
                }
            }
        }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else { return nil }
        return (reader.failures, reader.skipped)
    }
}

/// What a scenario does to its process — a `fatalError`, a signal, `exit()`, a step that never returns,
/// a scenario that runs too long, a worker killed from outside — fails that scenario with the reason
/// and the run goes on: in `--ci` with one worker, and with `--jobs 2`.
@Suite(.serialized)
struct FaultContainmentTests {
    static let faults = """
        feature: Faults
        scenarios:
          - scenario: Before
            steps: [succeed]
          - scenario: Crashes
            steps:
              - succeed
              - crash: boom in app code
          - scenario: Segfaults
            steps:
              - raise signal: 11
          - scenario: Exits
            steps:
              - exit process: 0
          - scenario: Stuck
            steps:
              - ignore cancellation
          - scenario: Too long
            steps:
              - sleep: 30
          - scenario: After
            steps: [succeed]
        """

    static let expectedFailures: [String: String] = [
        "Crashes": "The process running this scenario crashed: Fatal error: boom in app code (signal 4, SIGILL).",
        "Segfaults": "The process running this scenario was ended by signal 11 (SIGSEGV).",
        "Exits": "The process running this scenario exited with status 0 before the scenario finished.",
        "Stuck": "Did not finish within 2.0 s and ignored cancellation. Its process was ended.",
        "Too long": "Did not finish within 6.0 s (--scenario-timeout); its process was ended.",
    ]

    @Test(arguments: ["1", "2"])
    func everyFaultFailsItsScenarioAndTheRunGoesOn(jobs: String) async throws {
        let project = try CLI.project(["Scenarios/faults.yml": Self.faults])
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(
            // Room for set-up, a step and tear-down of the passing scenarios on a loaded machine.
            ["--ci", "--jobs", jobs, "--timeout", "2", "--scenario-timeout", "6", "--junit", report.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1)
        #expect(result.stdout.hasSuffix("2 passed, 5 failed\n"), "\(result.stdout)")
        for (name, reason) in Self.expectedFailures {
            #expect(result.stdout.contains("✗ \(name) ("), "\(name)")
            #expect(result.stdout.contains(reason), "\(name): \(result.stdout)")
        }
        #expect(result.stdout.contains("✓ Before") && result.stdout.contains("✓ After"))
        // Steps before the crash ran and passed: the report says so even though the worker died.
        #expect(result.stdout.contains("✓ succeed: Passed"), "\(result.stdout)")
        #expect(!result.stderr.contains("error: Worker"), "every end is some scenario's failure: \(result.stderr)")
        let cases = try #require(CLI.junitCases(report), "the JUnit report is complete, well-formed XML")
        #expect(cases.failures.count == 7)
        for (name, reason) in Self.expectedFailures { #expect(cases.failures[name] == .some(reason), "\(name)") }
        #expect(cases.failures["Before"] == .some(nil) && cases.failures["After"] == .some(nil))
    }

    @Test func inProcessRunsWithoutWorkersAndGivesUpContainment() async throws {
        let project = try CLI.project(["Scenarios/faults.yml": Self.faults])
        let running = try CLI.Running(
            ["--ci", "--in-process", "--filter", "^Before$"],
            directory: project,
            environment: [:],
            executable: CLI.faultsBinary
        )
        let result = await running.wait()
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"))
        // In this process, a crash ends the run: that is what workers are for.
        let crashed = try await CLI.run(
            ["--ci", "--in-process", "--filter", "^Crashes$"],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(crashed.status != 0 && crashed.status != 1, "the process itself crashed: \(crashed.status)")
        let both = try await CLI.run(["--ci", "--in-process", "--jobs", "2"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--in-process runs one scenario at a time; leave out --jobs."))
    }

    @Test func anHTTPRequestIsBoundedByTheStepTimeout() async throws {
        let project = try CLI.project([
            "Scenarios/stalled.yml": """
            scenarios:
              - scenario: Stalled
                steps:
                  - get objects: { path: /stalled }
                  - wait: 3
                  - fail: the log is printed with a failing scenario
            """
        ])
        // `wait: 3` has its own timeout (4 s), so the request's 1.5 s timeout comes first, every time.
        let result = try await CLI.run(["--ci", "--timeout", "1.5"], directory: project)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("log: GET /stalled → failed: The request to /stalled timed out after 1.5 s."),
            "\(result.stdout)"
        )
    }

    /// What the worker buffered and never sent — the log of the steps before it was killed — is read from
    /// its board: the report has the scenario's events as the worker would have sent them.
    @Test func aWorkerKilledFromOutsideFailsItsScenarioAndAnotherTakesOver() async throws {
        let project = try CLI.project([
            "Scenarios/killed.yml": """
            scenarios:
              - scenario: Killed
                steps:
                  - log line: written before the end
                  - touch: started
                  - sleep: 30
              - scenario: After
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let (running, workers) = try await CLI.startFaults(["--ci", "--junit", report.path], in: project)
        #expect(workers.count == 1)
        for worker in workers { kill(worker, SIGKILL) }
        let result = await running.wait()
        #expect(result.status == 1)
        let reason = "The process running this scenario was ended by signal 9 (SIGKILL)."
        #expect(result.stdout.contains(reason), "\(result.stdout)")
        #expect(result.stdout.contains("✓ touch started"), "the step before is reported passed: \(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
        let cases = try #require(CLI.junitCases(report))
        #expect(cases.failures["Killed"] == .some(reason))
        #expect(cases.failures["After"] == .some(nil))
        #expect(result.stdout.contains("✓ log line"), "\(result.stdout)")
        let junit = try String(contentsOf: report, encoding: .utf8)
        #expect(junit.contains("written before the end"), "the killed scenario's log: \(junit)")
    }
}

/// SIGINT, SIGTERM and SIGHUP in a headless run, with one worker and with two: the running scenario is
/// cancelled and torn down, the rest are reported skipped, the JUnit file and the state file are
/// complete, no worker outlives the run; a second signal exits 130 at once.
@Suite(.serialized)
struct SignalTests {
    static let scenarios = """
        scenarios:
          - scenario: Quick
            steps: [succeed]
          - scenario: Long
            steps:
              - touch: started
              - sleep: 30
          - scenario: Never
            steps: [succeed]
          - scenario: Never either
            steps: [succeed]
        """

    @Test(arguments: [(SIGINT, "1"), (SIGTERM, "1"), (SIGHUP, "1"), (SIGINT, "2"), (SIGTERM, "2"), (SIGHUP, "2")])
    func aSignalCancelsTheRunAndTheReportIsComplete(signal: Int32, jobs: String) async throws {
        let project = try CLI.project(["Scenarios/long.yml": Self.scenarios])
        let report = project.appendingPathComponent("report.xml")
        let (running, workers) = try await CLI.startFaults(
            ["--ci", "--jobs", jobs, "--junit", report.path],
            in: project
        )
        // With two, the other worker may have run the rest and ended already.
        #expect((1...2).contains(workers.count))
        kill(running.process.processIdentifier, signal)
        let result = await running.wait()
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cancelling"), "\(result.stderr)")
        #expect(result.stdout.contains("Run cancelled."), "the long scenario is cancelled: \(result.stdout)")
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let counts = last.split(separator: ",").compactMap { Int($0.split(separator: " ").first ?? "") }
        // With two workers the other one may be part-way through a quick scenario when the signal
        // comes: that one is cancelled too, failed at the step it did not run, never reported passed.
        let cases = try #require(CLI.junitCases(report), "complete, well-formed JUnit")
        let alsoCancelled = cases.failures.filter { $0.key != "Long" && $0.value?.hasPrefix("Run cancelled") == true }
        #expect(jobs == "2" || alsoCancelled.isEmpty, "one worker runs one scenario at a time: \(alsoCancelled)")
        #expect(alsoCancelled.count <= 1, "\(alsoCancelled)")
        #expect(
            counts.count >= 2 && counts.reduce(0, +) == 4 && counts[1] == 1 + alsoCancelled.count,
            "every scenario accounted for: \(last)"
        )
        #expect(cases.failures.count == 4)
        #expect(cases.failures["Long"] != .some(nil))
        #expect(try Set(CLI.failedNames(in: project)) == Set(["Long"] + alsoCancelled.keys))
        // A worker that said it ended is gone a few milliseconds later (the kernel takes it down; it runs nothing).
        #expect(await eventually { workers.allSatisfy(ProcessList.hasEnded) }, "no worker outlives the run")
        #expect(CLI.boardFiles(of: running.process.processIdentifier).isEmpty, "the progress board is removed")
    }

    @Test func aSecondSignalExits130AtOnceLeavingNoWorker() async throws {
        let project = try CLI.project([
            "Scenarios/stuck.yml": """
            scenarios:
              - scenario: Stuck
                steps:
                  - ignore cancellation after touching: started
            """
        ])
        let (running, workers) = try await CLI.startFaults(["--ci", "--timeout", "60"], in: project)
        #expect(workers.count == 1)
        kill(running.process.processIdentifier, SIGTERM)
        #expect(await eventually { running.stderr.contains("Cancelling") })
        kill(running.process.processIdentifier, SIGTERM)
        let result = await running.wait()
        #expect(result.status == 130)
        #expect(await eventually { workers.allSatisfy { kill($0, 0) != 0 } }, "no worker outlives the run")
        #expect(CLI.boardFiles(of: running.process.processIdentifier).isEmpty, "the progress board is removed")
    }

    @Test func aSignalWhileLoadingStillReportsEveryScenario() async throws {
        // Enough scenarios that loading takes a while; the signal comes once the handler is installed and
        // the workers exist (the first starts with the process), during loading, just after, or early in
        // the run. The last
        // scenario waits a minute, so that however late a loaded machine delivers the signal, the run is
        // still going: it must end cancelled (exit 1), never green.
        let body =
            (0..<20_000).map { "  - scenario: S\($0)\n    steps: [succeed]\n" }.joined()
            + "  - scenario: Last\n    steps: [{ wait: 60 }]\n"
        let count = 20_001
        let project = try CLI.project(["Scenarios/many.yml": "scenarios:\n" + body])
        let report = project.appendingPathComponent("report.xml")
        let running = try CLI.Running(["--ci", "--junit", report.path], directory: project, environment: [:])
        let pid = running.process.processIdentifier
        #expect(await eventually { ProcessList.handles(SIGTERM, pid: pid) && !ProcessList.children(of: pid).isEmpty })
        kill(pid, SIGTERM)
        let result = await running.wait()
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cancelling"))
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let counts = last.split(separator: ",").compactMap { Int($0.split(separator: " ").first ?? "") }
        #expect(counts.reduce(0, +) == count, "every scenario accounted for: \(last)")
        let cases = try #require(CLI.junitCases(report), "complete, well-formed JUnit")
        #expect(cases.failures.count == count)
    }
}
