import Synchronization

/// The first worker of a run, started as the executable starts — before its command line is parsed and
/// the project's settings read — so that the worker's own process start (the dynamic loader, the Swift
/// runtime's first lookups: about 15 ms) runs on the other core meanwhile, not after. It waits for its
/// run; the run's ``WorkerPool`` adopts it for its first slot. One nobody adopts (the command turned out
/// to be `check`, `--list`, a usage error, a run in this process) is dismissed, or reads the end of its
/// input when this process ends, and ends too.
///
/// ```swift
/// if RootCommand.mayRunWorkers(arguments, environment: environment) { WorkerLaunchpad.prestart() }
/// let started = WorkerLaunchpad.take()   // the pool's first launch; nil when none was started
/// ```
package enum WorkerLaunchpad {
    private static let waiting = Mutex<WorkerProcess.Started?>(nil)

    /// Starts a worker to wait for its run, unless too few open files are allowed for one (the run then
    /// says why, or runs in this process) or it cannot start (the pool's own launch then says why).
    package static func prestart() {
        guard let limit = OpenFiles.softLimit, OpenFiles.workersFitting(limit) > 0 else { return }
        OpenFiles.closeDescriptorsOverTheLimit()
        guard let started = try? WorkerProcess.start(arguments: [WorkerMain.command]) else { return }
        let previous = waiting.withLock { waiting in
            defer { waiting = started }
            return waiting
        }
        previous?.dismiss()
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
