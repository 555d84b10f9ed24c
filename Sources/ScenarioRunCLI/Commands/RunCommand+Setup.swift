import ArgumentParser
import Foundation
import RunPipeline
import Scenarios

/// What the options make of the run before anything loads: the settings, the part of the suite this job
/// runs, and the worker processes.
extension RunCommand {
    /// The project's settings with the options on top.
    func runSettings(environment: [String: String]) throws -> RunSettings {
        do {
            return withOptions(try project.settings(environment: environment))
        } catch {
            throw Terminal.failLoading(error)
        }
    }

    /// `settings` with the options on top.
    func withOptions(_ settings: RunSettings) -> RunSettings {
        var settings = settings
        if failFast { settings.failFast = true }
        if let timeout, let duration = Duration(checkedSeconds: timeout) { settings.stepTimeout = duration }
        if let scenarioTimeout, let duration = Duration(checkedSeconds: scenarioTimeout) {
            settings.scenarioTimeout = duration
        }
        if let filter { settings.filter = filter }
        settings.repetitions = `repeat`
        settings.retries = retries
        if let html { settings.htmlReport = html }
        // The reports that show each scenario's requests get them from every executor.
        settings.requestLog = settings.htmlReport != nil || junit != nil
        return settings
    }

    /// Which part of the suite this job runs: --shard, else the CI's parallel-job variables. Prints the
    /// error and exits 2 when the part or its --shard-timings cannot be read.
    func shardPart(environment: [String: String]) throws -> Shard? {
        var part: Shard?
        do {
            if let shard {
                part = try Shard(parsing: shard)
            } else {
                part = try Shard(environment: environment)
            }
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
        // --shard-timings balances the part by time; without a part there is nothing to balance.
        if var shard = part, let shardTimings {
            do {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: shardTimings))
                } catch {
                    throw MergeJUnitCommand.unreadable(shardTimings, error)
                }
                shard.timings = try ShardTimings(junit: data, path: shardTimings)
                part = shard
            } catch {
                Terminal.printError(MergeJUnitCommand.text(error))
                throw ExitCode(2)
            }
        }
        return part
    }

    /// The worker processes the scenarios run in, or nil when this process runs them (or `--list` runs
    /// none).
    ///
    /// Scenarios run in worker processes, so that a crash or a hang ends a scenario, not the run; they
    /// start now (the first one started with this process: `WorkerLaunchpad`), to be ready while this
    /// process loads the scenario files. KIF_SKIP_TEAR_DOWN runs them here instead (what the last one
    /// left is this process's to keep and inspect), and so does --in-process (no isolation, for speed).
    ///
    /// So few open files allowed that not one worker fits (`ulimit -n 20`): the scenarios run here, said
    /// in a note, rather than Foundation crashing on the first worker.
    func workerPool(settings: RunSettings, live: Bool, openFiles: Int) -> WorkerPool? {
        let fitting = OpenFiles.workersFitting(openFiles)
        if fitting == 0, !list, !settings.skipTearDown, !inProcess, record == nil {
            Terminal.printError(
                "note: ulimit -n is \(openFiles), too few open files for a worker process "
                    + "(\(OpenFiles.base + OpenFiles.perWorker) are needed): "
                    + "the scenarios run in this process, as with --in-process."
            )
        }
        // A recording's forwarding is this process's stub server's.
        guard !list, !settings.skipTearDown, !inProcess, record == nil, fitting > 0 else {
            // The worker started as this process started has nothing to run.
            WorkerLaunchpad.dismiss()
            return nil
        }
        return WorkerPool(
            WorkerPool.Options(
                WorkerPoolMachine.Options(
                    // The live runner shows one running scenario at a time.
                    jobs: live ? 1 : min(jobs, WorkerPool.workerLimit, fitting),
                    forwardOutput: !live,
                    scenarioTimeout: settings.scenarioTimeout,
                    cancellationGrace: settings.cancellationGrace
                ),
                // The event stream tells tools each step as it starts, as the live runner does.
                run: WorkerRun(paths: paths, settings: settings, liveEvents: live || events != nil)
            )
        )
    }
}

extension RunCommand {
    /// The command line as typed, for the HTML report: the arguments after the executable's name, each
    /// quoted for a POSIX shell when it needs it.
    static func commandLine() -> String {
        let arguments = CommandLine.arguments
        let name = URL(fileURLWithPath: arguments.first ?? "scenario-run").lastPathComponent
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+")
        let quoted = arguments.dropFirst().map { argument in
            !argument.isEmpty && argument.allSatisfy(safe.contains)
                ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }
        return ([name] + quoted).joined(separator: " ")
    }
}

extension RunCommand {
    /// Exit status of a run whose options select no scenario (SPEC.md §18).
    static let emptySelectionStatus: Int32 = 4

    /// A selection with no scenario: an empty shard of a suite that has scenarios for other shards ends
    /// well (exit 0, said); anything else is exit 4 with the reason (nothing is run or written), unless
    /// `--allow-empty`. A run that goes on runs nothing, and writes its report and state as any run.
    func endEmpty(_ selection: ScenarioSelection, loaded: [Scenario], part: Shard?, lineArguments: [String]) throws {
        if let part, !selection.matching(loaded).isEmpty || loaded.isEmpty {
            Terminal.printError(
                "Shard \(part) has none of the \(selection.matching(loaded).count.groupedDigits) selected scenarios (\(loaded.count.groupedDigits) loaded); nothing to run."
            )
            return
        }
        let reason = selection.emptyReason(loaded: loaded, lineArguments: lineArguments)
        if allowEmpty {
            Terminal.printError(reason + " Nothing to run (--allow-empty).")
            return
        }
        Terminal.printError("error: " + reason)
        throw ExitCode(Self.emptySelectionStatus)
    }
}
