import Synchronization

/// The first worker of a run, started as the executable starts — before its command line is parsed and
/// the project's settings read. Forked while the process has its one thread, it costs no process start
/// at all; spawned (`scenario-run worker`), its own process start (the dynamic loader, the Swift
/// runtime's first lookups: about 15 ms) runs on the other core meanwhile, not after. It waits for its
/// run; the run's ``WorkerPool`` adopts it for its first slot. One nobody adopts (the command turned out
/// to be `check`, `--list`, a usage error, a run in this process) is dismissed, or reads the end of its
/// input when this process ends, and ends too.
///
/// ```swift
/// if RootCommand.mayRunWorkers(arguments, environment: environment),
///     WorkerLaunchpad.prestart(forking: true) == .worker { … }   // this process is the worker now
/// let started = WorkerLaunchpad.take()   // the pool's first launch; nil when none was started
/// ```
package enum WorkerLaunchpad {
    private static let waiting = Mutex<WorkerProcess.Started?>(nil)

    /// Starts a worker to wait for its run, unless too few open files are allowed for one (the run then
    /// says why, or runs in this process) or it cannot start (the pool's own launch then says why).
    ///
    /// With `forking` and while this process has one thread (an app's `main.swift` calling
    /// `ScenarioRun.run(app:)`), the worker is this process forked; otherwise
    /// `scenario-run worker` is spawned. Returns ``Side/worker`` in the forked worker, which goes on as
    /// one (``WorkerMain/run(app:)``), and ``Side/command`` in this process.
    package static func prestart(forking: Bool) -> Side {
        guard let limit = OpenFiles.softLimit, OpenFiles.workersFitting(limit) > 0 else { return .command }
        OpenFiles.closeDescriptorsOverTheLimit()
        let started: WorkerProcess.Started
        if forking, ForkedProcess.hasOneThread {
            do {
                guard let forked = try WorkerProcess.fork() else { return .worker }
                started = forked
            } catch {
                return .command
            }
        } else {
            guard let spawned = try? WorkerProcess.start(arguments: [WorkerMain.command]) else { return .command }
            started = spawned
        }
        let previous = waiting.withLock { waiting in
            defer { waiting = started }
            return waiting
        }
        previous?.dismiss()
        return .command
    }

    /// Which process ``prestart(forking:)`` returns in.
    package enum Side: Sendable {
        /// The process that started the worker: it goes on with its command.
        case command
        /// The forked worker: it goes on as the worker.
        case worker
    }

    /// The worker started for this run, once; `nil` when none was, or it was taken.
    static func take() -> WorkerProcess.Started? {
        waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
    }

    /// Ends the waiting worker, if any: the run runs in this process, or runs nothing.
    package static func dismiss() {
        take()?.dismiss()
    }
}
