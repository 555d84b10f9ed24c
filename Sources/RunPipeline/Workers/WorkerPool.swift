import Diagnostics
import Foundation
package import Scenarios
import Steps
import Synchronization

/// Runs scenarios in worker processes (`scenario-run worker`), so that nothing a scenario does — a
/// `fatalError`, a signal, `exit()`, a step that never returns — can take the runner down with it.
///
/// Each worker loads the same scenario files, starts its own stub server, and runs the scenario indexes
/// the pool writes to its channel (a socket that is the worker's standard input until it takes it
/// over), streaming run events back on the same channel as JSON lines; everyone's events are merged
/// into one run for the reporters (or the live runner). What app code prints is never read as an event:
/// the worker puts it in the scenario's log. `jobs` workers run at once. A worker that dies while
/// running a scenario fails that scenario with what killed it (the crash message from its standard
/// error, or the signal) and a new worker takes its place. The pool ends the process of a worker
/// whose step holds its thread past the step's timeout and the grace period (a timeout cannot end a
/// blocking call), whose scenario runs past `--scenario-timeout`, or whose step still runs a grace
/// period after Ctrl-C: each fails its scenario the same way, at the step's `FILE:LINE`. Which scenario
/// and step a worker is in, since when and the step's timeout are read from a ``ProgressBoard``, so the
/// report names them even when the worker's events had not been written yet.
///
/// The decisions — who runs what, fail-fast, skipped scenarios, which worker to end or replace — are
/// ``WorkerPoolMachine``'s (over ``ParallelSchedule``), a plain value this type feeds and whose actions
/// it carries out with no lock held; ``WorkerProcess`` is one process with its channel and readers.
package final class WorkerPool: RunExecutor {
    package struct Options: Sendable {
        /// How many workers, whether their output is shown, and their time limits: the machine's own.
        var pool: WorkerPoolMachine.Options
        /// What every worker runs: the paths and the resolved settings, sent as its channel's first line
        /// (whether it sends every event at once, step starts and waits included, too).
        var run: WorkerRun

        package init(_ pool: WorkerPoolMachine.Options, run: WorkerRun) {
            self.pool = pool
            self.run = run
        }
    }

    /// What happens to the pool, handled one at a time in arrival order.
    private enum Input {
        case start
        case lines(slot: Int, [RunEventLines.Message])
        case exited(slot: Int, WorkerExit)
        case run(WorkerPoolMachine.RunRequest)
        case cancel
        case abandon
        case tick
    }

    /// The machine, the processes of its slots and the run's reporting: read and changed under the lock,
    /// never while a process starts or a channel is written.
    private struct Core {
        var machine: WorkerPoolMachine
        var processes: [Int: WorkerProcess] = [:]
        var emit: (@Sendable (RunEvent) -> Void)?
        var finished: CheckedContinuation<RunSummary, Never>?
    }

    /// How many workers run at most, whatever `--jobs` says: four per core (a worker waits on its app,
    /// its requests and its timeouts as much as it computes); more only queue for the cores, each
    /// holding a process, a stub server and three pipes.
    package static var workerLimit: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) * workersPerCore }
    static let workersPerCore = 4

    /// The line that says so when fewer workers run than `--jobs` asked for — the core limit, the
    /// open-file limit, or fewer scenarios than workers (those started to load the files meanwhile are
    /// ended as soon as the count is known, before they run anything) — naming the tightest; `nil` when
    /// all of them run.
    package static func capNote(
        jobs: Int,
        scenarios: Int,
        openFiles: Int = Int.max,
        cores: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> String? {
        let limit = max(1, cores) * workersPerCore
        let fitting = OpenFiles.workersFitting(openFiles)
        let running = max(1, min(jobs, limit, fitting, scenarios))
        guard running < jobs, scenarios > 0 else { return nil }
        let why =
            if running == scenarios {
                "\(scenarios.groupedDigits) scenario\(scenarios == 1 ? "" : "s")"
            } else if running == fitting {
                "ulimit -n is \(openFiles); each worker needs \(OpenFiles.perWorker) open files"
            } else {
                "at most \(workersPerCore) per core, \(max(1, cores)) core\(cores == 1 ? "" : "s")"
            }
        return "note: --jobs \(jobs.groupedDigits): \(running) worker\(running == 1 ? "" : "s") (\(why))."
    }

    /// How often the pool reads the board for steps and scenarios past their time.
    static let watchInterval: Duration = .milliseconds(100)

    private let options: Options
    private let board: ProgressBoard?
    private let core: Mutex<Core>
    /// What happened, handled in arrival order by whichever thread finds no one else handling: two
    /// workers' readers taking a lock in turn, event by event, spent more time waking each other than
    /// working; instead a reader that finds another one handling leaves its lines here and goes back to
    /// reading.
    private let inbox = Mutex<(pending: [Input], handling: Bool)>(([], false))

    /// Starts the workers at once, so that they load the scenario files while this process does.
    package init(_ options: Options) {
        var pool = options.pool
        pool.jobs = max(1, pool.jobs)
        let jobs = pool.jobs
        self.options = options
        signal(SIGPIPE, SIG_IGN)  // a worker that died must not take the parent with it
        OpenFiles.closeDescriptorsOverTheLimit()
        do {
            board = try ProgressBoard(creatingSlots: jobs)
        } catch {
            Terminal.printError(
                "warning: Without a progress board, a crash is reported without its scenario, and no timeout ends a step that blocks its thread: \(error)"
            )
            board = nil
        }
        core = Mutex(Core(machine: WorkerPoolMachine(pool)))
        deliver(.start)
        // Workers started as this process started beyond the slots (``WorkerLaunchpad``) run nothing.
        WorkerLaunchpad.dismiss()
    }

    /// Why workers ended without a scenario to blame; a run with any fails (exit status 1).
    package var workerFailures: [String] { core.withLock { $0.machine.failures } }

    /// Ends the workers without running anything more (this process could not load the files, or a
    /// second interrupt): every worker is killed at once.
    package func abandon() {
        deliver(.abandon)
    }

    /// Runs `scenarios` (the plan is announced first) and returns the totals once every worker has
    /// exited. A pool runs again (the live runner's re-runs) with new workers.
    ///
    /// - Parameters:
    ///   - scenarios: the selected scenarios, in run order.
    ///   - plan: what `runStarted` announces.
    package func run(
        _ scenarios: [Scenario],
        plan: RunPlan,
        emit: @escaping @Sendable (RunEvent) -> Void
    ) async -> RunSummary {
        let start = ContinuousClock.now
        emit(.runStarted(plan))
        let watchdog = startWatchdog()
        defer { watchdog.cancel() }
        let request = WorkerPoolMachine.RunRequest(plan: plan, failFast: options.run.settings.failFast)
        var summary = await withCheckedContinuation { (continuation: CheckedContinuation<RunSummary, Never>) in
            core.withLock { core in
                core.emit = emit
                core.finished = continuation
            }
            deliver(.run(request))
        }
        summary.duration = ContinuousClock.now - start
        emit(.runFinished(summary))
        return summary
    }

    /// Ctrl-C: nothing new is handed out; each worker cancels its running scenario (whose tear-down
    /// runs) and ends. A worker whose set-up or scenario step still runs a grace period later (it holds
    /// its thread, so it cannot see the cancellation) is ended by the watchdog.
    package func cancel() {
        deliver(.cancel)
    }

    // MARK: Handling

    /// Hands an input over: handled at once unless another thread is handling, which then handles it
    /// next.
    private func deliver(_ input: Input) {
        let mustHandle = inbox.withLock { inbox -> Bool in
            inbox.pending.append(input)
            guard !inbox.handling else { return false }
            inbox.handling = true
            return true
        }
        guard mustHandle else { return }
        while true {
            let batch = inbox.withLock { inbox -> [Input] in
                defer { inbox.pending = [] }
                if inbox.pending.isEmpty { inbox.handling = false }
                return inbox.pending
            }
            if batch.isEmpty { return }
            for input in batch { perform(transition(input)) }
        }
    }

    /// The machine's answer to `input`, under the lock (the board, shared memory, is read first).
    private func transition(_ input: Input) -> [WorkerPoolMachine.Action] {
        switch input {
        case .start:
            return core.withLock { $0.machine.start() }
        case .lines(let slot, let lines):
            return core.withLock { $0.machine.received(lines, from: slot) }
        case .exited(let slot, let exit):
            // What it buffered and never sent (its board's copy) comes first: the steps that ran before
            // its end are reported as it would have reported them.
            let unsent = board.map { WorkerProcess.messages(in: $0.unsent(in: slot)).messages } ?? []
            let progress = board?.running(in: slot)
            return core.withLock { core in
                core.processes[slot] = nil
                return core.machine.received(unsent, from: slot) + core.machine.exited(slot, exit, progress: progress)
            }
        case .run(let request):
            return core.withLock { $0.machine.run(request) }
        case .cancel:
            let now = ProgressBoard.now()
            return core.withLock { $0.machine.cancel(now: now) }
        case .abandon:
            return core.withLock { $0.machine.abandon() }
        case .tick:
            guard let board else { return [] }
            let now = ProgressBoard.now()
            var progress: [Int: ProgressBoard.Progress] = [:]
            for slot in 0..<max(1, options.pool.jobs) { progress[slot] = board.running(in: slot) }
            return core.withLock { [progress] in $0.machine.tick(now: now, progress: progress) }
        }
    }

    /// Carries the machine's actions out, in order, with no lock held; a launch that fails adds the
    /// machine's answer to it.
    private func perform(_ actions: [WorkerPoolMachine.Action]) {
        // The run's reporting, read once: it changes only with the run (`finish` is the last action).
        let emit = core.withLock { $0.emit }
        var pending = actions[...]
        while let action = pending.popFirst() {
            switch action {
            case .launch(let slot):
                do {
                    let process = try launch(slot)
                    core.withLock { $0.processes[slot] = process }
                } catch {
                    pending += core.withLock { $0.machine.launchFailed(slot, reason: error.description) }
                }
            case .write(let slot, let text):
                core.withLock { $0.processes[slot] }?.write(text)
            case .closeInput(let slot):
                core.withLock { $0.processes[slot] }?.closeInput()
            case .kill(let slot):
                core.withLock { $0.processes[slot] }?.signal(SIGKILL)
            case .terminate(let slot):
                core.withLock { $0.processes[slot] }?.signal(SIGTERM)
            case .clearBoard(let slot):
                board?.clear(slot)
            case .emit(let event):
                emit?(event)
            case .output(let text):
                Terminal.write(Data((text + "\n").utf8), to: .standardOutput)
            case .reportError(let message):
                Terminal.printError("error: \(message)")
            case .note(let message):
                Terminal.printError("note: \(message)")
            case .finish(let summary):
                let finished = core.withLock { core in
                    defer {
                        core.finished = nil
                        core.emit = nil
                    }
                    return core.finished
                }
                finished?.resume(returning: summary)
            }
        }
    }

    /// Starts the worker process of `slot`, its lines and its end delivered here.
    private func launch(_ slot: Int) throws(WorkerProcess.StartFailure) -> WorkerProcess {
        // The run, with the worker's place on the board, is the first line of its channel.
        var run = options.run
        run.board = board?.path
        run.slot = slot
        // A launch adopts a worker started as this process started, while one waits (``WorkerLaunchpad``).
        let started: WorkerProcess.Started
        if let waiting = WorkerLaunchpad.take() {
            started = waiting
        } else {
            started = try WorkerProcess.start(arguments: [WorkerMain.command])
        }
        return WorkerProcess(
            started,
            runLine: try? run.line(),
            forwardOutput: options.pool.forwardOutput,
            onLines: { [self] lines in deliver(.lines(slot: slot, lines)) },
            onExit: { [self] exit in deliver(.exited(slot: slot, exit)) }
        )
    }

    // MARK: Watchdog

    /// Reads the board every ``watchInterval`` (at most a quarter of `--scenario-timeout`); the process
    /// of a worker past its time is killed (``WorkerPoolMachine/tick(now:progress:)``).
    private func startWatchdog() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = max(.milliseconds(10), min(Self.watchInterval, options.pool.scenarioTimeout / 4))
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [self] in deliver(.tick) }
        timer.resume()
        return timer
    }
}
