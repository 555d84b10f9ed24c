import ArgumentParser
import Foundation
import RunPipeline
import Scenarios
import Steps

/// The root of the command line: `run` (the default), `check`, `serve` and the other commands. A worker
/// process (`scenario-run worker`) never reaches it (`ScenarioRun.run(app:arguments:)`).
struct RootCommand: AsyncParsableCommand {
    /// The app the subcommands drive, set by `ScenarioRun.run(app:arguments:)` (or `main`) for the whole run.
    @TaskLocal static var app: AppUnderTest?

    /// The name the executable was started by (`scenario-run`, or an app's own test executable).
    static let executableName: String = {
        let name = (CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent }) ?? ""
        return name.isEmpty ? "scenario-run" : name
    }()

    /// Made once: deriving the usage costs argument-parser a walk of every command's options.
    static let configuration: CommandConfiguration = {
        let name = executableName
        return CommandConfiguration(
            commandName: name,
            abstract: "Run functional scenarios against a local stub server.",
            // Deriving it walks every command's options (tens of milliseconds in a debug build, at every
            // start of every worker): only when help is asked for, the one time it is printed.
            usage: wantsHelp ? usage(name: name) : nil,
            discussion: """
                Scenario files (*.yml) under Scenarios/ drive the app's shared object manager between default \
                set-up and tear-down steps, against a stub server answering from Fixtures/. On a terminal the \
                live runner opens; --ci (or a pipe) prints plain lines. See '\(name) help run' for every option.

                Exit codes: 0 every selected scenario passed, 1 at least one failed, 2 usage or load error, \
                4 the options select no scenario (unless --allow-empty).

                --watch follows the scenario files, scenario-run.yml, server.yml and the fixtures; the app's \
                Swift code is not watched (it needs a build).

                Environment: KIF_SKIP_TEAR_DOWN, KIF_SCENARIO_FILTER, KIF_EXIT_ON_FAILURE, NO_COLOR; without --shard, \
                CI_NODE_INDEX/CI_NODE_TOTAL (1-based), CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL and \
                BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT (0-based) pick the shard.
                """,
            subcommands: visibleCommands,
            defaultSubcommand: RunCommand.self
        )
    }()

    /// Whether the command line asks for help (`help`, `-h`, `--help`).
    static var wantsHelp: Bool {
        CommandLine.arguments.dropFirst().contains { ["help", "-h", "--help"].contains($0) }
    }

    /// The commands a user runs, `run` first (the default).
    static let visibleCommands: [any ParsableCommand.Type] = [
        RunCommand.self, CheckCommand.self, ServeCommand.self, StepsCommand.self, SchemaCommand.self,
        VerifyCommand.self, RecordCommand.self, ReferenceCommand.self, MergeJUnitCommand.self,
    ]

    /// The root usage: each command's own, as argument-parser derives it from the options the command
    /// declares (nothing written twice, so none can be missing); `run`'s without its name.
    static func usage(name: String) -> String {
        visibleCommands.map { command in
            let own = command.configuration.commandName ?? ""
            let derived = command.usageString().trimmingCharacters(in: .whitespacesAndNewlines)
            let rest = derived.hasPrefix(own) ? String(derived.dropFirst(own.count)) : " " + derived
            return command == RunCommand.self ? name + rest : "\(name) \(own)\(rest)"
        }.joined(separator: "\n")
    }

    /// The app of this run; only ``ScenarioRun`` starts the commands, always with one.
    static var appUnderTest: AppUnderTest {
        guard let app else { preconditionFailure("scenario-run's commands run only through ScenarioRun.run(app:)") }
        return app
    }

    /// The subcommands' names other than `run`, and `help`: arguments starting with one are not `run`'s.
    static var otherSubcommands: Set<String> {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }.filter { $0 != "run" }
        return Set(names + ["help"])
    }

    /// Whether `arguments` may start a run in worker processes — `run`, given or by default, without an
    /// option that runs in this process or runs nothing, and without `KIF_SKIP_TEAR_DOWN` — judged before
    /// they are parsed, to start the first worker meanwhile (``WorkerLaunchpad``). A wrong yes costs an
    /// idle process start; the run dismisses the worker.
    static func mayRunWorkers(_ arguments: [String], environment: [String: String]) -> Bool {
        guard !RunSettings().applying(environment: environment).skipTearDown else { return false }
        if let first = arguments.first, otherSubcommands.contains(first) { return false }
        return !arguments.contains { argument in
            noWorkerOptions.contains(argument) || ["-h", "--help", "--help-hidden"].contains(argument)
                || noWorkerOptions.contains { argument.hasPrefix($0 + "=") }
        }
    }

    /// How many workers `--jobs N` (or `--jobs=N`) in `arguments` asks for, judged before they are parsed
    /// to start them meanwhile (``WorkerLaunchpad``); 1 without it, or when its value is no number. A
    /// wrong guess costs idle process starts the run dismisses, or workers it starts itself.
    static func jobsAsked(_ arguments: [String]) -> Int {
        var value: Substring?
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            if argument == "--jobs", index + 1 < arguments.count {
                value = arguments[index + 1][...]
            } else if argument.hasPrefix("--jobs=") {
                value = argument.dropFirst("--jobs=".count)
            }
        }
        return value.flatMap { Int($0) } ?? 1
    }

    /// `run`'s options that run its scenarios in this process or run none (``mayRunWorkers(_:environment:)``).
    static let noWorkerOptions = ["--in-process", "--list", "--record"]

    /// Parses and runs `arguments`, mapping every outcome to SPEC.md's exit codes (usage errors are 2,
    /// not 64).
    static func execute(_ arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(ShuffleArgument.normalized(arguments, otherSubcommands: otherSubcommands))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                return 0
            }
            Terminal.printError(fullMessage(for: error))
            return code == .failure ? 1 : 2
        }
    }
}
