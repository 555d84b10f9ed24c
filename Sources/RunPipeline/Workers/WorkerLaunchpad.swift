import Synchronization

/// The workers of a run, started as the executable starts — before its command line is parsed and the
/// project's settings read: as many as `--jobs` asks (within the core and open-file limits). Forked while
/// the process has its one thread, they cost no process start at all; the first spawned
/// (`scenario-run worker`, from a process that has threads) has its own process start (the dynamic
/// loader, the Swift runtime's first lookups: about 15 ms) on the other core meanwhile, not after. Each
/// waits for its run; the run's ``WorkerPool`` adopts them for its slots, in order. One nobody adopts (the
/// command turned out to be `check`, `--list`, a usage error, a run in this process, fewer slots) is
/// dismissed, or reads the end of its input when this process ends, and ends too.
///
/// ```swift
/// if RootCommand.mayRunWorkers(arguments, environment: environment),
///     WorkerLaunchpad.prestart(forking: true, workers: 2) == .worker { … }   // this process is a worker now
/// let started = WorkerLaunchpad.take()   // a slot's launch; nil when none is waiting
/// ```
package enum WorkerLaunchpad {
    private static let waiting = Mutex<[WorkerProcess.Started]>([])

    /// Starts `workers` workers (at least one; no more than ``WorkerPool/workerLimit`` and the open-file
    /// limit allow) to wait for their run, unless too few open files are allowed for one (the run then
    /// says why, or runs in this process) or none can start (the pool's own launch then says why).
    ///
    /// With `forking` and while this process has one thread (an app's `main.swift` calling
    /// `ScenarioRun.run(app:)`), each worker is this process forked, and none of them holds another's
    /// channel; otherwise one `scenario-run worker` is spawned (the pool spawns the others as it starts).
    /// Returns ``Side/worker`` in a forked worker, which goes on as one (``WorkerMain/run(app:)``), and
    /// ``Side/command`` in this process.
    package static func prestart(forking: Bool, workers: Int = 1) -> Side {
        guard let limit = OpenFiles.softLimit else { return .command }
        let count = min(max(1, workers), WorkerPool.workerLimit, OpenFiles.workersFitting(limit))
        guard count > 0 else { return .command }
        OpenFiles.closeDescriptorsOverTheLimit()
        var started: [WorkerProcess.Started] = []
        if forking, ForkedProcess.hasOneThread {
            for _ in 0..<count {
                do {
                    guard let forked = try WorkerProcess.fork(closing: started) else { return .worker }
                    started.append(forked)
                } catch {
                    break
                }
            }
        } else if let spawned = try? WorkerProcess.start(arguments: [WorkerMain.command]) {
            started.append(spawned)
        }
        let previous = waiting.withLock { waiting in
            defer { waiting = started }
            return waiting
        }
        for worker in previous { worker.dismiss() }
        return .command
    }

    /// Which process ``prestart(forking:)`` returns in.
    package enum Side: Sendable {
        /// The process that started the worker: it goes on with its command.
        case command
        /// The forked worker: it goes on as the worker.
        case worker
    }

    /// The next worker started for this run, once each; `nil` when none was, or all were taken.
    static func take() -> WorkerProcess.Started? {
        waiting.withLock { waiting in waiting.isEmpty ? nil : waiting.removeFirst() }
    }

    /// Ends the waiting workers, if any: the run runs in this process, runs nothing, or has taken the
    /// ones it has slots for.
    package static func dismiss() {
        let rest = waiting.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
        for worker in rest { worker.dismiss() }
    }
}
