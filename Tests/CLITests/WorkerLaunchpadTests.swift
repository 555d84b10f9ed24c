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
        #expect(await eventually(timeout: .seconds(30)) { Self.processes(marked: mark).isEmpty })
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
