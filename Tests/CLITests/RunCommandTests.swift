import Foundation
import RunPipeline
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `scenario-run` end to end: the built binary on the demo suite and on scratch projects.
struct RunCommandTests {
    @Test func demoSuitePassesWithExitZero() async throws {
        let result = try await CLI.run(["--ci"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let passed = Int(last.split(separator: " ").first ?? "") ?? 0
        #expect(last == "\(passed) passed, 0 failed")
        #expect(passed >= 26)
        #expect(result.stdout.contains("✓ Posting a review the server answers with 422"))
        #expect(!result.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    @Test func failingExampleExitsOneWithTheReasonAndFileLine() async throws {
        let result = try await CLI.run(["--ci", "Scenarios/examples-failing"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("✗ Expecting the wrong status"))
        #expect(
            result.stdout.contains("The last response (POST /422 → 422 (Invalid object.)) has status 422, expected 201")
        )
        #expect(result.stdout.contains("at Scenarios/examples-failing/failing.yml:10"))
        #expect(result.stdout.contains("✓ tear down the test environment"))
        #expect(result.stdout.contains("✗ Leaving a draft behind"))
        #expect(result.stdout.hasSuffix("0 passed, 3 failed\n"))
    }

    @Test func malformedFileExitsTwoAndRunsNothing() async throws {
        let project = try CLI.project([
            "Scenarios/bad.yml": """
            scenarios:
              - scenario: Typo
                steps:
                  - stub rout: { class: Review, method: POST, to: /422 }
                  - expect entities: { entity: Reveiw, count: 0 }
              - scenario: Fine
                steps:
                  - succeed: fine
            """,
            "Scenarios/also-bad.yml": "scenarios:\n  - scenario: Unclosed\n    steps: [\n",
        ])
        let result = try await CLI.run(["--ci"], directory: project)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Scenarios/also-bad.yml:4:1: error:"))
        #expect(
            result.stderr.contains(
                """
                Scenarios/bad.yml:4:9: error: Unknown step 'stub rout'. Did you mean 'stub route'?
                      - stub rout: { class: Review, method: POST, to: /422 }
                        ^
                Scenarios/bad.yml:5:36: error: Unknown entity 'Reveiw'. Did you mean 'Review'?
                      - expect entities: { entity: Reveiw, count: 0 }
                                                   ^
                3 errors; nothing was run.
                """
            )
        )
    }

    @Test func filterAndItsEnvironmentVariableSelectByName() async throws {
        let byFlag = try await CLI.run(["--ci", "--filter", "answers with (422|503)"])
        #expect(byFlag.status == 0)
        #expect(byFlag.stdout.hasSuffix("2 passed, 0 failed\n"), "\(byFlag.stdout)")
        let byEnvironment = try await CLI.run(["--ci"], environment: ["KIF_SCENARIO_FILTER": "^Loading the restaurant"])
        #expect(byEnvironment.stdout.hasSuffix("1 passed, 0 failed\n"), "\(byEnvironment.stdout)")
        let invalid = try await CLI.run(["--ci", "--filter", "(unclosed"])
        #expect(invalid.status == 2)
    }

    /// `--filter` and `KIF_SCENARIO_FILTER` ignore case, as the live runner's `/` filter does.
    @Test func filterIgnoresCaseLikeTheLiveRunnersFilter() async throws {
        let byFlag = try await CLI.run(["--ci", "--list", "--filter", "ANSWERS WITH (422|503)"])
        #expect(byFlag.status == 0, "\(byFlag.stderr)")
        #expect(byFlag.stdout.contains("answers with 422"), "\(byFlag.stdout)")
        #expect(byFlag.stdout.contains("answers with 503"), "\(byFlag.stdout)")
        let byEnvironment = try await CLI.run(["--ci"], environment: ["KIF_SCENARIO_FILTER": "^loading THE restaurant"])
        #expect(byEnvironment.stdout.hasSuffix("1 passed, 0 failed\n"), "\(byEnvironment.stdout)")
    }

    @Test func tagSelectsScenariosWithTheTag() async throws {
        let result = try await CLI.run(["--ci", "--tag", "offline"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Posting a review while offline sends nothing"))
        #expect(result.stdout.contains("The restaurant list is served from the cache while offline"))
        #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"), "\(result.stdout)")
    }

    @Test func failFastStopsAfterTheFirstFailure() async throws {
        let result = try await CLI.run(["--ci", "--fail-fast", "Scenarios/examples-failing"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("- Failing on purpose (skipped)"))
        #expect(result.stdout.contains("- Leaving a draft behind (skipped)"))
        #expect(result.stdout.hasSuffix("0 passed, 1 failed, 2 skipped\n"), "\(result.stdout)")
        let byEnvironment = try await CLI.run(
            ["--ci", "Scenarios/examples-failing"],
            environment: ["KIF_EXIT_ON_FAILURE": "1"]
        )
        #expect(byEnvironment.stdout.hasSuffix("0 passed, 1 failed, 2 skipped\n"))
    }

    @Test func rerunFailedRunsOnlyThePreviousFailures() async throws {
        let project = try CLI.project([
            "Scenarios/mixed.yml": """
            scenarios:
              - scenario: Passes
                steps: [succeed]
              - scenario: Fails
                steps: [{ fail: on purpose }]
            """
        ])
        let first = try await CLI.run(["--ci"], directory: project)
        #expect(first.stdout.hasSuffix("1 passed, 1 failed\n"))
        let state = try String(
            contentsOf: project.appendingPathComponent(".scenario-run/last-failed.json"),
            encoding: .utf8
        )
        #expect(state.contains("Fails"))
        let rerun = try await CLI.run(["--ci", "--rerun-failed"], directory: project)
        #expect(rerun.status == 1)
        #expect(!rerun.stdout.contains("Passes"))
        #expect(rerun.stdout.hasSuffix("0 passed, 1 failed\n"), "\(rerun.stdout)")
    }

    @Test func listShowsScenariosAndStepsAndRunsNothing() async throws {
        let result = try await CLI.run(["--list", "Scenarios/reviews.yml"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Reviews (Scenarios/reviews.yml)"))
        #expect(result.stdout.contains("  Posting a review the server answers with 422  @outcomes @reviews"))
        #expect(result.stdout.contains("    step      stub route Review POST to /422  Scenarios/reviews.yml:"))
        #expect(result.stdout.contains("    set up    set up the test environment"))
        #expect(result.stdout.contains("    tear down tear down the test environment"))
        #expect(result.stdout.hasSuffix("11 scenarios\n"))
        #expect(!result.stdout.contains("passed"))
    }

    @Test func junitReportParsesAndItsCountsMatch() async throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xml")
        let result = try await CLI.run([
            "--ci", "--junit", report.path, "Scenarios/examples-failing", "Scenarios/store.yml",
        ])
        #expect(result.status == 1)
        let data = try Data(contentsOf: report)
        let counter = JUnitCounter()
        let parser = XMLParser(data: data)
        parser.delegate = counter
        #expect(parser.parse(), "the report is well-formed XML")
        #expect(counter.suites == 3)
        #expect(counter.testcases == 7)
        #expect(counter.failures == 3)
        #expect(
            counter.suiteAttributes.contains {
                $0["name"] == "Entity store" && $0["tests"] == "4" && $0["failures"] == "0"
            }
        )
        #expect(
            counter.suiteAttributes.contains {
                $0["name"] == "Failing examples" && $0["tests"] == "2" && $0["failures"] == "2"
            }
        )
        #expect(
            counter.suiteAttributes.contains {
                $0["name"] == "Leaking examples" && $0["tests"] == "1" && $0["failures"] == "1"
            }
        )
    }

    @Test func skipTearDownKeepsTheLastStoreAsASQLiteFile() async throws {
        let project = try CLI.project([
            "Scenarios/keep.yml": """
            scenarios:
              - scenario: Leaves a review behind
                steps:
                  - stub route: { class: Review, method: POST, to: /review }
                  - post object: { class: Review, attributes: { restaurantID: 12345, title: Kept } }
                  - expect entities: { entity: Review, count: 1 }
            """
        ])
        let result = try await CLI.run(
            ["--ci", "--verbose"],
            directory: project,
            environment: ["KIF_SKIP_TEAR_DOWN": "1"]
        )
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("    - tear down the test environment (skipped)"))
        let path = project.appendingPathComponent(".scenario-run/last-store.sqlite").path
        #expect(result.stdout.contains("KIF_SKIP_TEAR_DOWN: the last scenario's store is kept at \(path)"))
        #expect(
            result.stdout.contains("  sqlite3 \(path) 'select * from \"Review\"'"),
            "the hint names the app's table with rows"
        )
        #expect(!result.stdout.contains("from \"Restaurant\""), "tables without rows are not suggested")
        #expect(FileManager.default.fileExists(atPath: path))
        if let sqlite3 = ExternalTool.path("sqlite3") ?? (ExternalTool.required ? "sqlite3" : nil) {
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: sqlite3)
            sqlite.arguments = [path, "select reviewID, title, restaurantID from review"]
            let pipe = Pipe()
            sqlite.standardOutput = pipe
            try sqlite.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            sqlite.waitUntilExit()
            #expect(output == "1|Whatever|12345\n")
        }
    }

    /// `| head` closes the output pipe early: the run goes on, exits as usual and writes the whole report.
    @Test func aClosedOutputPipeIsNoCrashAndTheJUnitFileIsWritten() async throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(UUID().uuidString).xml")
        for jobs in ["1", "2"] {
            try? FileManager.default.removeItem(at: report)
            let script =
                "'\(CLI.binary.path)' --ci --jobs \(jobs) --junit '\(report.path)' | head -1 > /dev/null; echo \"${PIPESTATUS[0]}\""
            let result = try await CLI.run(["-c", script], executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(result.stdout == "0\n", "--jobs \(jobs): exit status \(result.stdout) \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
            let xml = try String(contentsOf: report, encoding: .utf8)
            #expect(xml.hasSuffix("</testsuites>\n"))
            #expect(xml.components(separatedBy: "<testcase ").count - 1 >= 26)
        }
    }

    @Test func aJUnitPathThatCannotBeWrittenIsAUsageErrorBeforeAnythingRuns() async throws {
        let folder = CLI.scratchRoot.appendingPathComponent("junit-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let missing = try await CLI.run(["--ci", "--junit", "/nonexistent-\(UUID().uuidString)/report.xml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("does not exist."), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty, "nothing ran")
        let isFolder = try await CLI.run(["--ci", "--junit", folder.path])
        #expect(isFolder.status == 2)
        #expect(
            isFolder.stderr.contains("Error: --junit: Cannot write '\(folder.path)': it is a folder."),
            "\(isFolder.stderr)"
        )
        #expect(isFolder.stdout.isEmpty, "nothing ran")
    }

    @Test func ctrlCCancelsGracefullyAndTheReportIsComplete() async throws {
        let project = try CLI.project([
            "Scenarios/long.yml": """
            scenarios:
              - scenario: Quick
                steps: [succeed]
              - scenario: Long
                steps:
                  - wait: 30
              - scenario: Never started
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let events = project.appendingPathComponent("events.jsonl")
        let running = try CLI.Running(
            ["--ci", "--junit", report.path, "--events", events.path],
            directory: project,
            environment: [:]
        )
        // Interrupted once Long is under way (not merely once Quick has passed).
        #expect(
            await eventually { CLI.eventsSayStarted("Long", file: "Scenarios/long.yml", in: events) }
        )
        running.process.interrupt()
        let result = await running.wait()
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cancelling"))
        #expect(result.stdout.contains("Run cancelled."))
        #expect(result.stdout.contains("- Never started (skipped)"))
        #expect(result.stdout.hasSuffix("1 passed, 1 failed, 1 skipped\n"), "\(result.stdout)")
        let parser = XMLParser(data: try Data(contentsOf: report))
        #expect(parser.parse())
    }

    @Test func jobsRunsTheSameScenariosInWorkerProcessesWithTheSameReport() async throws {
        func cases(_ arguments: [String]) async throws -> (result: CLI.Result, testcases: [String]) {
            let report = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xml")
            let result = try await CLI.run(["--ci", "--junit", report.path] + arguments)
            let xml = try String(contentsOf: report, encoding: .utf8)
            let names = xml.split(separator: "\n").filter { $0.contains("<testcase ") }.map {
                String($0.split(separator: " time=")[0])
            }
            return (result, names.sorted())
        }
        let serial = try await cases([])
        let parallel = try await cases(["--jobs", "3"])
        #expect(parallel.result.status == 0, "\(parallel.result.stdout)\(parallel.result.stderr)")
        #expect(parallel.testcases == serial.testcases)
        #expect(parallel.testcases.count >= 26)
        #expect(parallel.result.stdout.hasSuffix("\(serial.testcases.count) passed, 0 failed\n"))

        let failing = try await cases(["--jobs", "2", "Scenarios/examples-failing", "Scenarios/store.yml"])
        #expect(failing.result.status == 1)
        #expect(
            failing.result.stdout.contains(
                "The last response (POST /422 → 422 (Invalid object.)) has status 422, expected 201"
            )
        )
        #expect(failing.result.stdout.contains("at Scenarios/examples-failing/failing.yml:10"))
        #expect(failing.result.stdout.hasSuffix("4 passed, 3 failed\n"))
        #expect(failing.testcases.count == 7)
    }

    @Test func jobsWithAMalformedFileReportsItOnceAndRunsNothing() async throws {
        let project = try CLI.project(["Scenarios/bad.yml": "scenarios:\n  - scenario: A\n    steps: [succed]\n"])
        let result = try await CLI.run(["--ci", "--jobs", "2"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.components(separatedBy: "error:").count == 2,
            "one error, not one per worker: \(result.stderr)"
        )
        #expect(result.stdout.isEmpty)
        #expect(try await CLI.run(["--ci", "--jobs", "0"]).status == 2)
    }

    @Test func jobsCtrlCCancelsEveryWorkerAndTheReportIsComplete() async throws {
        let project = try CLI.project([
            "Scenarios/long.yml": """
            scenarios:
              - { scenario: Quick A, steps: [succeed] }
              - { scenario: Long A, steps: [{ wait: 30 }] }
              - { scenario: Quick B, steps: [succeed] }
              - { scenario: Long B, steps: [{ wait: 30 }] }
              - { scenario: Long C, steps: [{ wait: 30 }] }
              - { scenario: Long D, steps: [{ wait: 30 }] }
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let running = try CLI.Running(
            ["--ci", "--jobs", "2", "--junit", report.path],
            directory: project,
            environment: [:]
        )
        #expect(await eventually { running.stdout.contains("✓ Quick A") && running.stdout.contains("✓ Quick B") })
        let workers = ProcessList.children(of: running.process.processIdentifier)
        #expect(workers.count == 2, "with --jobs 2 two worker processes run scenarios")
        running.process.interrupt()
        let result = await running.wait()
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cancelling"))
        #expect(result.stdout.contains("Run cancelled."))
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let counts = last.split(separator: ",").compactMap { Int($0.split(separator: " ").first ?? "") }
        #expect(
            counts.count == 3 && counts[0] == 2 && counts.reduce(0, +) == 6,
            "every scenario accounted for: \(last)"
        )
        #expect(XMLParser(data: try Data(contentsOf: report)).parse())
        // A worker that said it ended is gone a few milliseconds later (the kernel takes it down; it runs nothing).
        #expect(await eventually { workers.allSatisfy(ProcessList.hasEnded) }, "no worker outlives the run")
    }

    @Test func benchTimingFileHasThePhaseMarksTheHarnessReads() async throws {
        let marks = FileManager.default.temporaryDirectory.appendingPathComponent("timing-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: marks) }
        let result = try await CLI.run(["--ci", "Scenarios/store.yml"], environment: ["BENCH_TIMING_FILE": marks.path])
        #expect(result.status == 0)
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: marks)) as? [String: Any])
        #expect(json["scenarios"] as? Int == 4)
        let first = try #require(json["first_setup"] as? Double)
        let last = try #require(json["last_teardown"] as? Double)
        #expect(first <= last)
        #expect(abs(Date().timeIntervalSince1970 - last) < 600)
    }

    @Test func usageErrorsExitTwoAndHelpExitsZero() async throws {
        let unknown = try await CLI.run(["--no-such-flag"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Unknown option '--no-such-flag'"))
        let help = try await CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: scenario-run"))
        let badTimeout = try await CLI.run(["--timeout", "0"])
        #expect(badTimeout.status == 2)
    }

    /// The root usage is each command's own usage line as `help COMMAND` prints it (derived from the
    /// options each declares, so none can be missing from it), and `help run` lists every run option.
    @Test func theRootUsageIsEveryCommandsOwn() async throws {
        let root = try await CLI.run(["help"])
        #expect(root.status == 0)
        let usage = root.stdout.components(separatedBy: "USAGE: ").last?.components(separatedBy: "\n\n").first ?? ""
        let lines = usage.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.count == 9, "\(usage)")
        for command in ["check", "serve", "steps", "schema", "verify", "record", "reference", "merge-junit"] {
            let help = try await CLI.run(["help", command])
            let own = help.stdout.components(separatedBy: "USAGE: ").last?.components(separatedBy: "\n").first ?? ""
            #expect(lines.contains(own), "\(command): '\(own)' is not in the root usage: \(lines)")
        }
        #expect(lines.first == "scenario-run [<options>] [<PATH> ...]")
        let run = try await CLI.run(["help", "run"])
        for option in [
            "--ci", "--filter", "--tag", "--junit", "--events", "--timeout", "--jobs", "--scenario-timeout",
            "--in-process", "--repeat", "--retries", "--shuffle", "--shard", "--rerun-failed", "--watch",
        ] {
            #expect(run.stdout.contains(option), "help run lacks \(option)")
        }
    }

    /// docs/command-line.md is made from the declarations: every option and argument each visible command
    /// declares (as argument-parser itself lists them) has its row, with its help — nothing to keep by hand.
    @Test func theCommandLineReferenceHasARowForEveryDeclaredArgument() async throws {
        let reference = try await CLI.run(["reference", "command-line"])
        #expect(reference.status == 0, "\(reference.stderr)")
        let dump = try await CLI.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let commands = try #require((root["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])
        var checked = 0
        for command in commands {
            let name = try #require(command["commandName"] as? String)
            guard name != "help" else { continue }
            let section = reference.stdout.components(separatedBy: "\n## `\(name)`").dropFirst().first?
                .components(separatedBy: "\n## ").first
            let text = try #require(section, "no section for \(name)")
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                let long = (argument["preferredName"] as? [String: Any])?["name"] as? String
                guard long != "help" else { continue }
                // The page links what the terminal's help names as a path (`docs/events.md`).
                let abstract = try #require(argument["abstract"] as? String)
                    .replacing(/docs\/([a-z-]+\.md)/) { "[\($0.1)](\($0.1))" }
                let shown = long.map { "`--\($0)" } ?? "`\(argument["valueName"] as? String ?? "?")"
                // The row whose first cell names it (`-C DIR`, `--project DIR` names --project).
                let row = text.split(separator: "\n").first { line in
                    let first = line.split(separator: " | ").first ?? ""
                    return first.hasPrefix("| \(shown)") || first.contains(", \(shown)")
                }
                #expect(row?.contains(abstract) == true, "\(name): no row for \(shown) with its help")
                checked += 1
            }
        }
        #expect(checked > 30)
        #expect(reference.stdout.contains("| `--retries N` | Re-run a failing scenario up to N more times"))
    }

    /// `steps NAME` with a typo prints the error and its suggestion, not the whole usage after them.
    @Test func anUnknownStepNameIsOneErrorWithASuggestion() async throws {
        let result = try await CLI.run(["steps", "stub rout"])
        #expect(result.status == 2)
        #expect(result.stderr == "error: Unknown step 'stub rout'. Did you mean 'stub route'?\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// Every option's help says its default once: argument-parser's `(default: …)` or the help's own words.
    @Test(arguments: ["run", "check", "serve", "steps", "schema", "verify", "reference", "merge-junit"])
    func helpSaysEachDefaultOnce(command: String) async throws {
        let result = try await CLI.run(["help", command])
        #expect(result.status == 0)
        // An option's help runs from its `-`/`--` to the next option.
        let options = result.stdout.components(separatedBy: "\n  -").dropFirst()
        for option in options {
            let defaults = option.components(separatedBy: "(default").count - 1
            #expect(defaults <= 1, "\(command): -\(option)")
        }
        if command == "serve" { #expect(result.stdout.contains("--port <N>")) }
    }
}

/// Counts the elements of a JUnit report.
final class JUnitCounter: NSObject, XMLParserDelegate, @unchecked Sendable {
    var suites = 0
    var testcases = 0
    var failures = 0
    var suiteAttributes: [[String: String]] = []

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch elementName {
        case "testsuite":
            suites += 1
            suiteAttributes.append(attributes)
        case "testcase": testcases += 1
        case "failure": failures += 1
        default: break
        }
    }
}
