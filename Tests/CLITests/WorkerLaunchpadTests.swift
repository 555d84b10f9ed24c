import Foundation
import TestSupport
import Testing

@testable import ScenarioRunCLI

/// A run's first worker starts as the executable starts (`WorkerLaunchpad`): only for a command that may
/// run workers, adopted by the run, and never left behind when nothing adopts it.
struct WorkerLaunchpadTests {
    @Test func onlyACommandThatMayRunWorkersStartsOneBeforeParsing() {
        let none: [String: String] = [:]
        for arguments in [[], ["--ci"], ["Scenarios/a.yml:3", "--jobs", "2"], ["run", "--ci"], ["--watch"]] {
            #expect(RootCommand.mayRunWorkers(arguments, environment: none), "\(arguments)")
        }
        let inThisProcessOrNone = [
            ["check"], ["serve"], ["steps"], ["help"], ["verify", "--target", "https://x.example"],
            ["--ci", "--in-process"],
            ["--list"], ["--record", "https://x.example"], ["--record=https://x.example"], ["-h"], ["--help"],
        ]
        for arguments in inThisProcessOrNone {
            #expect(!RootCommand.mayRunWorkers(arguments, environment: none), "\(arguments)")
        }
        #expect(!RootCommand.mayRunWorkers(["--ci"], environment: ["KIF_SKIP_TEAR_DOWN": "1"]))
        #expect(RootCommand.mayRunWorkers(["--ci"], environment: ["KIF_SKIP_TEAR_DOWN": " "]), "blank is unset")
        // The options named are `run`'s own: one renamed would start a worker it never uses.
        let help = RunCommand.helpMessage()
        for option in RootCommand.noWorkerOptions {
            #expect(help.contains(option + " ") || help.contains(option + "\n"), "\(option) is an option of run")
        }
    }

    /// A worker started for a command that then fails before its run (a usage error, a file that does not
    /// load) ends with that command: none is left behind waiting.
    @Test func aWorkerNobodyAdoptsEndsWithTheCommand() async throws {
        let mark = UUID().uuidString
        let environment = ["SCENARIO_RUN_TEST_MARK": mark]
        let usage = try await CLI.run(["--ci", "--jobs", "0"], environment: environment)
        #expect(usage.status == 2, "\(usage.stderr)")
        let unloadable = try await CLI.run(["--ci", "Scenarios/no-such-file.yml"], environment: environment)
        #expect(unloadable.status == 2, "\(unloadable.stderr)")
        let passing = try await CLI.run(["--ci", "Scenarios/reviews.yml:25"], environment: environment)
        #expect(passing.status == 0, "\(passing.stderr)")
        // Three started for --jobs 3: none is left behind by a run that fails to load or needs one.
        let threeUnloadable = try await CLI.run(
            ["--ci", "--jobs", "3", "Scenarios/no-such-file.yml"],
            environment: environment
        )
        #expect(threeUnloadable.status == 2, "\(threeUnloadable.stderr)")
        let threeForOne = try await CLI.run(["--ci", "--jobs=3", "Scenarios/reviews.yml:25"], environment: environment)
        #expect(threeForOne.status == 0, "\(threeForOne.stderr)")
        #expect(await eventually(timeout: .seconds(30)) { Self.processes(marked: mark).isEmpty })
    }

    /// A run's workers are the runner forked as it started (an app's `main.swift` calls
    /// `ScenarioRun.run(app:)`), as many as `--jobs` asks: no second executable to load, their command
    /// line the runner's own; none holds another's channel (each shares with the runner the sockets it
    /// had before it forked, and no more: not the runner's end of another worker's channel). Each runs
    /// its scenarios.
    @Test func theWorkersAreTheRunnerForked() async throws {
        let (project, running) = try await Self.twoWorkersWaiting()
        let runner = running.process.processIdentifier
        let workers = ProcessList.children(of: runner)
        let commandLines = workers.map(Self.commandLine(of:))
        #expect(commandLines.count == 2, "\(commandLines)")
        #expect(commandLines.allSatisfy { $0 == Self.commandLine(of: runner) }, "forked: \(commandLines)")
        let runnersSockets = Self.sockets(of: runner)
        let shared = workers.map { Self.sockets(of: $0).intersection(runnersSockets) }
        #expect(shared.count == 2 && shared[0] == shared[1], "\(shared) of the runner's \(runnersSockets)")
        #expect(runnersSockets.subtracting(shared.first ?? []).count == 2, "the runner's ends of two channels")
        _ = FileManager.default.createFile(atPath: project.appendingPathComponent("go").path, contents: nil)
        let result = await running.wait()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("4 passed, 0 failed\n"), "\(result.stdout)")
    }

    /// A worker forked after another is not that one's parent: signalled twice, it ends at once, and the
    /// worker forked before it runs on (a worker that kept its parent's list of children would take them
    /// down with it, as the runner does on a second interrupt).
    @Test func aWorkerEndedTwiceTakesNoOtherWorkerWithIt() async throws {
        let (project, running) = try await Self.twoWorkersWaiting()
        let workers = ProcessList.children(of: running.process.processIdentifier).sorted()
        try #require(workers.count == 2, "\(workers)")
        // Forked in turn: the second has the larger pid.
        let (first, second) = (workers[0], workers[1])
        #expect(await eventually { ProcessList.handles(SIGTERM, pid: second) })
        kill(second, SIGTERM)
        kill(second, SIGTERM)
        #expect(await eventually { ProcessList.hasEnded(second) }, "the worker signalled twice ends")
        #expect(!ProcessList.hasEnded(first), "the worker forked before it runs on")
        _ = FileManager.default.createFile(atPath: project.appendingPathComponent("go").path, contents: nil)
        let result = await running.wait()
        // The first worker's two scenarios pass; the second's, cancelled by its first SIGTERM, do not.
        #expect(
            result.stdout.contains("✓ S1 (") && result.stdout.contains("✓ S2 ("),
            "\(result.stdout)\(result.stderr)"
        )
    }

    /// How many workers are started before the command line is parsed: `--jobs`' value, 1 without it.
    @Test func theWorkersStartedFirstAreTheJobsAsked() {
        #expect(RootCommand.jobsAsked([]) == 1)
        #expect(RootCommand.jobsAsked(["--ci", "--jobs", "3"]) == 3)
        #expect(RootCommand.jobsAsked(["--jobs=4", "Scenarios/a.yml"]) == 4)
        #expect(RootCommand.jobsAsked(["--jobs", "x"]) == 1)
        #expect(RootCommand.jobsAsked(["--jobs"]) == 1)
        #expect(RootCommand.jobsAsked(["--", "--jobs", "3"]) == 1, "after --, a file's name")
    }

    /// A file the app opened before `ScenarioRun.main` (a global holding a log file) is the forked
    /// worker's too: app code in a scenario writes to it, as it would in the runner.
    @Test func aFileTheAppOpenedBeforeTheRunIsTheWorkersToo() async throws {
        let scenario = "feature: Log\nscenarios:\n  - scenario: Writes\n    steps: [{write app log: from the worker}]\n"
        let project = try CLI.project(["Scenarios/log.yml": scenario])
        let log = project.appendingPathComponent("app.log")
        let result = try await CLI.run(
            ["--ci"],
            directory: project,
            environment: ["SCENARIO_RUN_FAULTS_APP_LOG": log.path],
            executable: CLI.faultsBinary
        )
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect((try? String(contentsOf: log, encoding: .utf8)) == "from the worker\n")
    }

    /// `await ScenarioRun.main(app:)` from an asynchronous `main.swift` (which has threads by then, so its
    /// first worker is spawned): the same report as the forked run; `ScenarioRun.run(app:)` called there,
    /// off the main thread, is refused in words and runs nothing.
    @Test func anAsynchronousMainRunsTheSameAndRunThereIsRefused() async throws {
        let async = CLI.binary.deletingLastPathComponent().appendingPathComponent("scenario-run-async")
        let spawned = try await CLI.run(["--ci", "Scenarios/reviews.yml"], executable: async)
        let forked = try await CLI.run(["--ci", "Scenarios/reviews.yml"])
        #expect(spawned.status == 0, "\(spawned.stdout)\(spawned.stderr)")
        #expect(spawned.stdout.hasSuffix(" 0 failed\n") && !spawned.stdout.hasPrefix("0 passed"), "\(spawned.stdout)")
        #expect(
            spawned.stdout.split(separator: "\n").map { $0.replacing(/\(\d+\.\d+ s\)/, with: "") }
                == forked.stdout.split(separator: "\n").map { $0.replacing(/\(\d+\.\d+ s\)/, with: "") },
            "the same report, times aside"
        )
        let misplaced = try await CLI.run(
            ["--ci", "Scenarios/reviews.yml"],
            environment: ["SCENARIO_RUN_ASYNC_CALLS_RUN": "1"],
            executable: async
        )
        #expect(misplaced.status == 2)
        #expect(
            misplaced.stderr.contains("ScenarioRun.run(app:) must be called on the main thread"),
            "\(misplaced.stderr)"
        )
        #expect(misplaced.stdout.isEmpty, "nothing ran")
    }

    /// A `--jobs 2` run of the fault app over four scenarios that each touch `started-N`, then wait for the
    /// file `go`: two workers are handed two scenarios each, and this returns once the first of each runs.
    static func twoWorkersWaiting() async throws -> (project: URL, running: CLI.Running) {
        let scenarios = (1...4).map { number in
            "  - scenario: S\(number)\n    steps: [{touch: started-\(number)}, {wait for file: go}]\n"
        }
        let project = try CLI.project(["Scenarios/waiting.yml": "feature: Waiting\nscenarios:\n" + scenarios.joined()])
        let running = try CLI.Running(
            ["--ci", "--jobs", "2"],
            directory: project,
            environment: [:],
            executable: CLI.faultsBinary
        )
        let started = {
            (1...4).filter {
                FileManager.default.fileExists(atPath: project.appendingPathComponent("started-\($0)").path)
            }
        }
        #expect(await eventually { started().count == 2 }, "a scenario runs in each worker")
        return (project, running)
    }

    /// A process's arguments, its executable's name first (`/proc/PID/cmdline`).
    static func commandLine(of pid: pid_t) -> [String] {
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The sockets a process has open, by the `socket:[INODE]` its descriptors link to (`/proc/PID/fd`).
    static func sockets(of pid: pid_t) -> Set<String> {
        let directory = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(
            descriptors.compactMap { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(descriptor)"))
                    .flatMap { $0.hasPrefix("socket:") ? $0 : nil }
            }
        )
    }

    /// The processes whose environment holds `SCENARIO_RUN_TEST_MARK=mark` (zombies have none).
    static func processes(marked mark: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let wanted = Data("SCENARIO_RUN_TEST_MARK=\(mark)".utf8)
        return names.filter { name in
            guard Int32(name) != nil,
                let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ")
            else { return false }
            return environ.range(of: wanted) != nil
        }
    }
}
