import ArgumentParser
import ExampleApp
import Foundation
import NIOCore
import NIOPosix
import Steps

/// `scenario-run` — run, check or serve the scenarios of the project in the current folder.
@main
struct ScenarioRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario-run",
        abstract: "Run functional scenarios against a local stub server.",
        usage: """
            scenario-run [PATH ...] [--ci] [--filter REGEX] [--tag TAG ...] [--fail-fast] [--rerun-failed]
                         [--junit FILE] [--timeout SECONDS] [--jobs N] [--fixtures DIR] [--list] [--verbose] [--exit]
            scenario-run check [PATH ...]
            scenario-run serve [--port N]
            """,
        discussion: """
            Scenario files (*.yml) under Scenarios/ drive the app's shared object manager between default \
            set-up and tear-down steps, against a stub server answering from Fixtures/. On a terminal the \
            live runner opens; --ci (or a pipe) prints plain lines. See 'scenario-run help run' for every option.

            Exit codes: 0 every selected scenario passed, 1 at least one failed, 2 usage or load error.

            Environment: KIF_SKIP_TEAR_DOWN, KIF_SCENARIO_FILTER, KIF_EXIT_ON_FAILURE, NO_COLOR.
            """,
        subcommands: [RunCommand.self, CheckCommand.self, ServeCommand.self, WorkerCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// The app this executable drives.
    static let app = RestaurantReviews.appUnderTest

    /// Parses, runs, and maps every outcome to SPEC.md's exit codes (usage errors are 2, not 64).
    static func main() async {
        // Every task of the run, the HTTP client and the stub server share NIO's singleton event loop: a
        // step, its request and the server's answer run on one thread instead of hopping between Swift's
        // cooperative pool and NIO's loops (see DECISIONS.md). SCENARIO_RUN_EVENT_LOOPS asks for more loops.
        let loops = ProcessInfo.processInfo.environment["SCENARIO_RUN_EVENT_LOOPS"].flatMap(Int.init) ?? 1
        NIOSingletons.groupLoopCountSuggestion = max(1, loops)
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .failure ? 1 : 2)
        }
    }
}
