import Diagnostics
import Foundation
import RunPipeline
import Scenarios
import Steps
import TUIRunner

/// `--watch`: the selection made again from reloaded files, and the loops that follow the files — the
/// headless one here, the live runner's through ``TUIRun``.
extension RunCommand {
    /// The selection the options make of `loaded`; a `PATH:LINE` at no scenario or an unknown tag throws.
    func makeSelection(
        of loaded: [Scenario],
        suite: ScenarioSuite,
        lines: ScenarioLines,
        previousFailures: Set<ScenarioID>,
        part: Shard?,
        shuffle: ScenarioShuffle?
    ) throws -> ScenarioSelection {
        let selection = try ScenarioSelection(
            filter: suite.settings.filter,
            tags: tag.compactMap { try? TagExpression(parsing: $0) },  // checked by `validate`
            lines: suite.lineSelection(lines, of: loaded),
            rerunFailed: rerunFailed ? previousFailures : nil,
            shard: part,
            shuffle: shuffle
        )
        try selection.checkTags(in: loaded)
        return selection
    }

    /// The project read again: the scenario files, and with `everything` the settings, `server.yml` and
    /// fixtures too (a new stub server when this process runs the scenarios itself).
    func reloaded(
        _ current: WatchSession.Current,
        everything: Bool,
        lines: ScenarioLines,
        previousFailures: Set<ScenarioID>,
        part: Shard?,
        shuffle: ScenarioShuffle?,
        environment: [String: String],
        inProcess: Bool
    ) async throws -> WatchSession.Current {
        var next = current
        if everything {
            let settings = withOptions(try project.settings(environment: environment))
            next.suite = try ScenarioSuite(
                app: RootCommand.appUnderTest,
                settings: settings,
                directory: current.suite.directory
            )
            if inProcess {
                await current.server.stop()
                next.server = next.suite.makeServer()
                _ = try await next.server.start()
            }
            next.runner = try next.suite.makeRunner(server: next.server, environment: environment)
        }
        next.loaded = try next.suite.loadScenarios(paths: lines.paths, keepingActions: inProcess)
        next.selection = try makeSelection(
            of: next.loaded,
            suite: next.suite,
            lines: lines,
            previousFailures: previousFailures,
            part: part,
            shuffle: shuffle
        )
        return next
    }

    /// A watcher of the session's files (polling when `SCENARIO_RUN_WATCH_POLL` is set, or inotify is
    /// not there or will not watch them).
    static func watcher(of session: WatchSession, environment: [String: String]) -> FileWatcher {
        let (files, folders) = session.watched()
        return FileWatcher(
            files: files,
            folders: folders,
            forcePolling: environment["SCENARIO_RUN_WATCH_POLL"] != nil,
            inotify: .fromEnvironment(environment)
        )
    }

    /// `--ci --watch`: after the first run, each batch of changes prints what changed and runs again
    /// (or prints why it cannot), until Ctrl-C. Returns the last run's summary.
    func watchHeadless(
        _ session: WatchSession,
        last first: RunSummary,
        environment: [String: String],
        cancellation: RunCancellation,
        cancelRun: @escaping @Sendable () -> Void,
        output: StandardOutput,
        execute: ([Scenario]) async -> RunSummary
    ) async -> RunSummary {
        let watcher = Self.watcher(of: session, environment: environment)
        cancellation.onCancel {
            cancelRun()
            watcher.stop()
        }
        let count = session.watched().files.count
        output.write(
            "\nWatching \(count) file\(count == 1 ? "" : "s") and the fixtures for changes"
                + (watcher.polls ? " (polling)" : "") + "; the app's Swift code is not watched. Ctrl-C to stop.\n"
                + (watcher.pollingReason.map { FileWatcher.pollingNote($0) + "\n" } ?? "")
        )
        var last = first
        for await batch in watcher.changes {
            if cancellation.isCancelled { break }
            if let note = batch.note { output.write(note + "\n") }
            if batch.paths.isEmpty { continue }
            switch await session.update(after: batch.paths) {
            case .failed(let text):
                output.write("\nChanged; cannot run:\n")
                Terminal.printError(text)
            case .run(let scenarios, let names):
                let count = scenarios.count
                output.write("\nChanged \(names): running \(count) scenario\(count == 1 ? "" : "s").\n")
                if !scenarios.isEmpty { last = await execute(scenarios) }
            }
        }
        return last
    }

    /// The live runner's watch: each batch of changes becomes a reload and a run, or a load error shown
    /// until the file is fixed.
    func watchLive(
        _ session: WatchSession,
        environment: [String: String],
        update: @escaping @Sendable (WatchUpdate) -> Void
    )
        -> @Sendable () -> Void
    {
        let watcher = Self.watcher(of: session, environment: environment)
        if let reason = watcher.pollingReason { update(.note(FileWatcher.pollingNote(reason))) }
        let task = Task {
            for await batch in watcher.changes {
                if let note = batch.note { update(.note(note)) }
                if batch.paths.isEmpty { continue }
                switch await session.update(after: batch.paths) {
                case .failed(let text):
                    update(.failed(text))
                case .run(let scenarios, let names):
                    let state = session.state
                    update(
                        .reloaded(
                            all: state.selection.select(state.loaded).map(\.id),
                            run: scenarios.map(\.id),
                            changed: names
                        )
                    )
                }
            }
        }
        return {
            watcher.stop()
            task.cancel()
        }
    }
}
