import Diagnostics
import Foundation
import Scenarios
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
/// The bookkeeping — who runs what, fail-fast, skipped scenarios — is ``ParallelSchedule``'s; this type
/// owns the processes, the pipes and the threads that read them.
final class WorkerPool: Sendable {
    struct Options: Sendable {
        /// How many worker processes run scenarios at once.
        var jobs: Int
        /// What every worker runs: the paths and the resolved settings, sent as its channel's first line
        /// (whether it sends every event at once, step starts and waits included, too).
        var run: WorkerRun
        /// The workers' own output (an app's prints, crash messages) is passed on to this process's
        /// standard output and error; the live runner, which owns the terminal, keeps it out.
        var forwardOutput = true
        /// How long one scenario may run before its process is ended.
        var scenarioTimeout: Duration = .seconds(120)
        /// How long a step may go on after its timeout or the run's cancellation (``RunSettings/cancellationGrace``).
        var cancellationGrace: Duration = .seconds(1)
    }

    private struct Worker {
        var process: Process?
        /// The pool's end of the worker's channel, for writing (a descriptor of its own, shut down and
        /// closed once the worker gets nothing more; the reader keeps the channel open until the worker ends).
        var input: FileHandle?
        /// Why the pool ended this process itself, if it did (a scenario past its timeout).
        var killReason: String?
        /// Whether it finished a scenario: a worker that never did is not replaced when it dies.
        var finishedAny = false
        /// Whether the run has fewer scenarios than workers and this one was ended before it ran any.
        var isSurplus = false
    }

    /// What `run` brings: the schedule, the index each scheduled scenario has in the workers' list,
    /// where events go, and who waits for the end.
    private struct Run {
        var schedule: ParallelSchedule
        var loaded: [ScenarioID]
        var workerIndexes: [Int]
        /// The plan's scenarios, for the step a failure names and where it is.
        var planned: [ScenarioID: RunPlan.PlannedScenario]
        var emit: @Sendable (RunEvent) -> Void
        var finished: CheckedContinuation<RunSummary, Never>
    }

    private struct State {
        var workers: [Worker] = []
        var run: Run?
        /// Workers that exited before the run began (while loading).
        var exitedEarly: [(worker: Int, exit: Exit)] = []
        /// Processes started and not yet exited.
        var alive = 0
        /// Why workers ended without it being any scenario's failure (the run fails with exit status 1).
        var failures: [String] = []
        var abandoned = false
        /// Runs started so far: a later run starts new workers (the live runner's re-runs).
        var runs = 0
        /// When this run was cancelled (CLOCK_MONOTONIC nanoseconds, as the board's times).
        var cancelledAt: Int64?
    }

    /// How a worker process ended, and the last of what it wrote to its standard error.
    struct Exit: Sendable {
        var signal: Int32?
        var status: Int32
        var standardErrorTail: String
    }

    /// What the reader threads hand over: a worker's lines, or its end.
    private enum Message {
        case lines(worker: Int, [RunEventLines.Message])
        case exited(worker: Int, Exit)
    }

    /// How many workers run at most, whatever `--jobs` says: four per core (a worker waits on its app,
    /// its requests and its timeouts as much as it computes); more only queue for the cores, each
    /// holding a process, a stub server and three pipes.
    static var workerLimit: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) * workersPerCore }
    static let workersPerCore = 4

    /// The line that says so when fewer workers run than `--jobs` asked for — the core limit, the
    /// open-file limit, or fewer scenarios than workers (those started to load the files meanwhile are
    /// ended as soon as the count is known, before they run anything) — naming the tightest; `nil` when
    /// all of them run.
    static func capNote(
        jobs: Int,
        scenarios: Int,
        openFiles: Int = Int.max,
        cores: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> String? {
        let limit = max(1, cores) * workersPerCore
        let fitting = workersFitting(openFiles: openFiles)
        let running = max(1, min(jobs, limit, fitting, scenarios))
        guard running < jobs, scenarios > 0 else { return nil }
        let why =
            if running == scenarios {
                "\(scenarios.groupedDigits) scenario\(scenarios == 1 ? "" : "s")"
            } else if running == fitting {
                "ulimit -n is \(openFiles); each worker needs \(descriptorsPerWorker) open files"
            } else {
                "at most \(workersPerCore) per core, \(max(1, cores)) core\(cores == 1 ? "" : "s")"
            }
        return "note: --jobs \(jobs.groupedDigits): \(running) worker\(running == 1 ? "" : "s") (\(why))."
    }

    /// Open files a run needs besides its workers, and each worker's (its channel, read and written
    /// through two descriptors, its standard error and Foundation's watch of the process), measured with `prlimit --nofile`: one worker runs at 30, two at 34, four
    /// at 42 (26 + 4 per worker); two spare.
    static let baseDescriptors = 28
    /// The fewest open files a run in this process needs (it ran at 16, NIO trapped at 12).
    static let leastDescriptors = 16
    static let descriptorsPerWorker = 4

    /// How many workers `openFiles` descriptors allow; 0 when not even one (the run goes in-process).
    static func workersFitting(openFiles: Int) -> Int {
        max(0, (openFiles - baseDescriptors) / descriptorsPerWorker)
    }

    /// Raises the soft open-file limit to the hard one (at most 65,536), as a shell's `ulimit -Sn 20`
    /// need not hold a run back; returns the soft limit then. Below the base, Foundation itself crashes
    /// (it cannot make a run loop's timer) once a worker is started.
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return Int.max }
        let wanted = min(limit.rlim_max, 65_536)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// A worker's exit status after it reported a scenario whose step it could not stop (it ends itself).
    static let abandonedStepStatus: Int32 = 4
    /// How many scenarios a lone worker holds ahead.
    static let singleWorkerPrefetch = 1024
    /// How much of a worker's standard error is kept to explain its end.
    static let standardErrorTailBytes = 8192
    /// How long a worker gets, past a step's timeout and grace period, to report the step itself
    /// before the pool ends its process: one whose step holds its thread never does.
    static let reportingTime: Duration = .seconds(1)
    /// The same after Ctrl-C: a cancelled run ends within two seconds.
    static let cancelledReportingTime: Duration = .milliseconds(500)
    /// How often the pool reads the board for steps and scenarios past their time.
    static let watchInterval: Duration = .milliseconds(100)

    private let options: Options
    /// ``Options/run`` as the line every worker is sent first.
    private let runLine: Data?
    private let board: ProgressBoard?
    private let state = Mutex(State())
    /// Messages from the readers, handled in arrival order by whichever reader finds no one else handling.
    private let inbox = Mutex<(pending: [Message], handling: Bool)>(([], false))

    /// Starts the workers at once, so that they load the scenario files while this process does.
    init(_ options: Options) {
        self.options = Options(
            jobs: max(1, options.jobs),
            run: options.run,
            forwardOutput: options.forwardOutput,
            scenarioTimeout: options.scenarioTimeout,
            cancellationGrace: options.cancellationGrace
        )
        runLine = try? options.run.line()
        signal(SIGPIPE, SIG_IGN)  // a worker that died must not take the parent with it
        Self.closeDescriptorsOverTheLimit()
        do {
            board = try ProgressBoard(creatingSlots: self.options.jobs)
        } catch {
            Terminal.printError(
                "warning: Without a progress board, a crash is reported without its scenario, and no timeout ends a step that blocks its thread: \(error)"
            )
            board = nil
        }
        state.withLock { state in
            state.workers = Array(repeating: Worker(), count: self.options.jobs)
            for slot in 0..<self.options.jobs { launch(slot, in: &state) }
        }
    }

    /// Why workers ended without a scenario to blame; a run with any fails (exit status 1).
    var workerFailures: [String] { state.withLock { $0.failures } }

    /// Ends the workers without running anything more (this process could not load the files, or a
    /// second interrupt): every worker is killed at once.
    func abandon() {
        let processes = state.withLock { state -> [Process] in
            state.abandoned = true
            for index in state.workers.indices { Self.closeInput(of: &state.workers[index]) }
            return state.workers.compactMap(\.process)
        }
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs `scenarios` (the plan is announced first) and returns the totals once every worker has
    /// exited. A pool runs again (the live runner's re-runs) with new workers.
    ///
    /// - Parameters:
    ///   - scenarios: the selected scenarios, in run order.
    ///   - loaded: every scenario the workers load (the selection's superset, in load order).
    ///   - plan: what `runStarted` announces.
    func run(
        _ scenarios: [Scenario],
        loaded: [Scenario],
        plan: RunPlan,
        failFast: Bool,
        emit: @escaping @Sendable (RunEvent) -> Void
    ) async -> RunSummary {
        let start = ContinuousClock.now
        emit(.runStarted(plan))
        let watchdog = startWatchdog()
        defer { watchdog.cancel() }
        let position = Dictionary(loaded.enumerated().map { ($1.id, $0) }) { first, _ in first }
        let planned = Dictionary(plan.scenarios.map { ($0.id, $0) }) { first, _ in first }
        // Workers start before the scenarios are loaded (to load them meanwhile); those beyond the
        // scenario count are ended now, before they run anything (`capNote` says so).
        let needed = min(options.jobs, max(1, scenarios.count))
        var summary = await withCheckedContinuation { (continuation: CheckedContinuation<RunSummary, Never>) in
            state.withLock { state in
                state.runs += 1
                state.cancelledAt = nil
                if state.runs > 1, !state.abandoned {
                    // A re-run: the previous run's workers have all ended.
                    state.exitedEarly = []
                    for slot in state.workers.indices {
                        state.workers[slot] = Worker()
                        board?.clear(slot)
                        if slot < needed { launch(slot, in: &state) } else { state.workers[slot].isSurplus = true }
                    }
                }
                for slot in state.workers.indices where slot >= needed { endSurplus(slot, in: &state) }
                state.run = Run(
                    // One worker needs no balancing: it is handed scenarios far ahead, so it never waits for
                    // the next index (two or more are handed two at a time, to whichever is free).
                    schedule: ParallelSchedule(
                        scenarios: scenarios.map(\.id),
                        workers: needed,
                        prefetch: needed == 1 ? Self.singleWorkerPrefetch : 2,
                        failFast: failFast
                    ),
                    loaded: loaded.map(\.id),
                    workerIndexes: scenarios.map { position[$0.id] ?? -1 },
                    planned: planned,
                    emit: emit,
                    finished: continuation
                )
                for worker in state.workers.indices where worker < needed { begin(worker, in: &state) }
                let early = state.exitedEarly
                state.exitedEarly = []
                for (worker, exit) in early { exited(worker, exit, in: &state) }
                finishIfDone(&state)
            }
        }
        summary.duration = ContinuousClock.now - start
        emit(.runFinished(summary))
        return summary
    }

    /// Ctrl-C: nothing new is handed out; each worker cancels its running scenario (whose tear-down
    /// runs) and ends. A worker whose set-up or scenario step still runs a grace period later (it holds
    /// its thread, so it cannot see the cancellation) is ended by the watchdog.
    func cancel() {
        let processes = state.withLock { state -> [Process] in
            state.run?.schedule.cancel()
            if state.cancelledAt == nil { state.cancelledAt = ProgressBoard.now() }
            for index in state.workers.indices { Self.closeInput(of: &state.workers[index]) }
            return state.workers.compactMap(\.process)
        }
        for process in processes where process.isRunning { process.terminate() }
    }

    // MARK: Workers

    private func launch(_ slot: Int, in state: inout State) {
        var arguments = ["worker"]
        if let board { arguments += ["--board", board.path, "--slot", String(slot)] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // A crash is reported from its message; the runtime's backtrace would take seconds per crash.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        process.environment = environment
        // Foundation's Pipe() crashes when pipe(2) fails (at a low `ulimit -n`); these fail in words.
        // The channel is the worker's standard input until the worker takes it over; its standard output
        // is the app's, which the worker puts in the scenario's log.
        let channel: SocketChannel
        let errors: Channel
        do {
            channel = try SocketChannel()
            errors = try Channel()
        } catch {
            couldNotStart(error, in: &state)
            return
        }
        process.standardInput = channel.workers
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors.writing
        do {
            try process.run()
        } catch {
            for handle in [channel.reading, channel.writing, channel.workers, errors.reading, errors.writing] {
                try? handle.close()
            }
            couldNotStart(error, in: &state)
            return
        }
        ChildProcesses.add(process.processIdentifier)
        try? channel.workers.close()
        // The run comes first on the channel: the worker reads it before it loads anything.
        // Without one (it could not be encoded) the worker reads the end of its input and stops, saying so.
        if let line = runLine {
            try? channel.writing.write(contentsOf: line)
        } else {
            shutdown(channel.writing.fileDescriptor, Int32(SHUT_WR))
        }
        try? errors.writing.close()
        state.workers[slot] = Worker(process: process, input: channel.writing)
        state.alive += 1
        let tail = StandardErrorTail(limit: Self.standardErrorTailBytes)
        let errorsRead = DispatchSemaphore(value: 0)
        let forward = options.forwardOutput
        Thread {
            tail.read(errors.reading, forwarding: forward)
            errorsRead.signal()
        }.start()
        Thread { [self] in
            read(channel.reading, from: slot)
            process.waitUntilExit()
            errorsRead.wait()
            ChildProcesses.remove(process.processIdentifier)
            let bySignal = process.terminationReason == .uncaughtSignal
            deliver(
                .exited(
                    worker: slot,
                    Exit(
                        signal: bySignal ? process.terminationStatus : nil,
                        status: bySignal ? 0 : process.terminationStatus,
                        standardErrorTail: tail.text
                    )
                )
            )
        }.start()
    }

    /// Closes the descriptors this process inherited above its open-file limit (a shell's 255 under
    /// `ulimit -n 64`): Foundation's Process asks posix_spawn to close every other descriptor in the
    /// child, and one at or over the limit fails that with EBADF, so no worker could start. Nothing of
    /// this process is there: it cannot open a descriptor that high itself.
    static func closeDescriptorsOverTheLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0,
            let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        else { return }
        for name in names {
            guard let descriptor = Int32(name), descriptor > 2, rlim_t(descriptor) >= limit.rlim_cur else { continue }
            close(descriptor)
        }
    }

    /// A worker that could not start: said once per run (the same reason would repeat for every slot),
    /// and a failure of the run.
    private func couldNotStart(_ error: any Error, in state: inout State) {
        var reason = "\(error)"
        if let posix = (error as NSError?).flatMap({ $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }) {
            var limit = rlimit()
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
            let note = getrlimit(resource, &limit) == 0 ? " (ulimit -n is \(limit.rlim_cur))" : ""
            reason = String(cString: strerror(posix)) + note
        }
        let message = "A worker process could not start: \(reason)"
        guard !state.failures.contains(message) else { return }
        Terminal.printError("error: \(message)")
        state.failures.append(message)
    }

    /// Ends a worker the run has no scenario for: killed while it loads the files (it holds nothing
    /// else), its exit expected.
    private func endSurplus(_ worker: Int, in state: inout State) {
        state.workers[worker].isSurplus = true
        Self.closeInput(of: &state.workers[worker])
        if let process = state.workers[worker].process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// Hands a (new) worker the count and fingerprint of the loaded scenarios and its first scenarios.
    private func begin(_ worker: Int, in state: inout State) {
        guard let input = state.workers[worker].input, let loaded = state.run?.loaded else { return }
        try? input.write(contentsOf: Data(ScenarioInput.header(of: loaded).utf8))
        send(state.run?.schedule.assignments(for: worker) ?? [], to: worker, in: &state)
    }

    /// Reads the worker's JSON lines (run events, the app's output between scenarios) until the worker
    /// ends; a line that is neither is dropped.
    ///
    /// Linear in what the worker writes: a chunk without a line break is only appended (a long line —
    /// a 4 MB failure reason — arrives in many chunks, and scanning and copying the unfinished line at
    /// every chunk was quadratic); the bytes left after the last line break are the tail of one chunk.
    private func read(_ handle: FileHandle, from worker: Int) {
        var buffer = Data()
        while true {
            let chunk = Self.nextChunk(of: handle)
            if chunk.isEmpty { break }
            // Only the new chunk is scanned; its offsets are shifted past the unfinished line before it.
            let newlines = Self.newlineOffsets(in: chunk).map { $0 + buffer.count }
            buffer.append(chunk)
            guard !newlines.isEmpty else { continue }
            var lines: [RunEventLines.Message] = []
            var consumed = 0
            for newline in newlines {
                let line = buffer[(buffer.startIndex + consumed)..<(buffer.startIndex + newline)]
                if let message = RunEventLines.decodeMessage(line) { lines.append(message) }
                consumed = newline + 1
            }
            buffer = Data(buffer[(buffer.startIndex + consumed)...])
            if !lines.isEmpty { deliver(.lines(worker: worker, lines)) }
        }
    }

    /// What `handle` has to read, waiting for it; empty at its end — and when reading fails, as it does
    /// on a channel whose worker ended without reading all it was sent (`ECONNRESET`, on which
    /// `FileHandle.availableData` traps).
    static func nextChunk(of handle: FileHandle) -> Data {
        withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 1) { buffer in
            while true {
                let count = Glibc.read(handle.fileDescriptor, buffer.baseAddress, buffer.count)
                if count < 0, errno == EINTR { continue }
                return count > 0 ? Data(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) : Data()
            }
        }
    }

    /// The offsets of the line breaks in `data`, found with `memchr`: a byte-by-byte iteration of `Data`
    /// checked its exclusive access at every byte, a third of a 4 MB line's reading.
    static func newlineOffsets(in data: Data) -> [Int] {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [Int] in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return [] }
            var offsets: [Int] = []
            var offset = 0
            while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
                let index = base.distance(to: UnsafeRawPointer(found))
                offsets.append(index)
                offset = index + 1
            }
            return offsets
        }
    }

    /// Hands a message over. The two readers of two workers taking the state's lock in turn, event by
    /// event, spent more time waking each other than working; instead a reader that finds another one
    /// handling messages leaves its own in the inbox and goes back to reading.
    private func deliver(_ message: Message) {
        let mustHandle = inbox.withLock { inbox -> Bool in
            inbox.pending.append(message)
            guard !inbox.handling else { return false }
            inbox.handling = true
            return true
        }
        guard mustHandle else { return }
        while true {
            let batch = inbox.withLock { inbox -> [Message] in
                defer { inbox.pending = [] }
                if inbox.pending.isEmpty { inbox.handling = false }
                return inbox.pending
            }
            if batch.isEmpty { return }
            state.withLock { state in
                for message in batch { handle(message, in: &state) }
            }
        }
    }

    private func handle(_ message: Message, in state: inout State) {
        switch message {
        case .lines(let worker, let lines):
            for line in lines {
                switch line {
                case .output(let text):
                    // What the app printed between scenarios: shown, as in a serial run.
                    if options.forwardOutput { Terminal.write(Data((text + "\n").utf8), to: .standardOutput) }
                case .event(let event):
                    // In place: a copy of the run would copy the schedule's arrays at every event.
                    guard let (forward, next) = state.run?.schedule.handle(event, from: worker),
                        let emit = state.run?.emit
                    else { continue }
                    if case .scenarioFinished = event { state.workers[worker].finishedAny = true }
                    for event in forward {
                        // The worker's start, said with which worker (1-based, as its messages name it).
                        if case .scenarioStarted(let id, nil) = event {
                            emit(.scenarioStarted(id, worker: worker + 1))
                        } else {
                            emit(event)
                        }
                    }
                    send(next, to: worker, in: &state)
                }
            }
        case .exited(let worker, let exit):
            state.alive -= 1
            exited(worker, exit, in: &state)
            finishIfDone(&state)
        }
    }

    /// A worker ended: before the run it is remembered; during it, the scenario it was running fails
    /// with what ended it, and a new worker takes its place while scenarios are waiting.
    private func exited(_ worker: Int, _ exit: Exit, in state: inout State) {
        guard state.workers.indices.contains(worker) else { return }
        Self.closeInput(of: &state.workers[worker])
        if state.workers[worker].isSurplus {
            state.workers[worker].process = nil
            board?.clear(worker)
            return
        }
        guard state.run != nil else {
            state.exitedEarly.append((worker, exit))
            return
        }
        let running = board?.running(in: worker).flatMap { interrupted($0, in: state) }
        let failure = state.workers[worker].killReason ?? Self.describe(exit, runningAScenario: true)
        // The process is gone: its pid may be another process's soon, and its slot of the board is stale.
        state.workers[worker].process = nil
        board?.clear(worker)
        guard let (events, resend) = state.run?.schedule.workerExited(worker, running: running, failure: failure),
            let emit = state.run?.emit
        else { return }
        for event in events { emit(event) }
        for (other, scenarios) in resend { send(scenarios, to: other, in: &state) }

        let endedItself = exit.signal == nil && (exit.status == 0 || exit.status == Self.abandonedStepStatus)
        if running == nil, !endedItself, !state.abandoned {
            let message = "Worker process \(worker + 1) ended: \(Self.describe(exit, runningAScenario: false))"
            state.failures.append(message)
            Terminal.printError("error: \(message)")
        }
        // A worker that had done work, or died in a scenario (whose failure is reported), is replaced;
        // one that never got going (it could not load, say) would only fail again.
        let replace = running != nil || state.workers[worker].finishedAny || exit.status == Self.abandonedStepStatus
        if replace, !state.abandoned, state.run?.schedule.hasWork == true {
            state.workers[worker] = Worker()
            launch(worker, in: &state)
            if state.workers[worker].process != nil {
                state.run?.schedule.workerReplaced(worker)
                begin(worker, in: &state)
            }
        }
    }

    /// Once every worker has exited: the skipped scenarios, and the end of ``run``.
    private func finishIfDone(_ state: inout State) {
        guard state.alive == 0, let (skipped, summary) = state.run?.schedule.finish(), let run = state.run else {
            return
        }
        for event in skipped { run.emit(event) }
        state.run = nil
        run.finished.resume(returning: summary)
    }

    /// Sends scenario indexes to a worker; closes its input once it will get nothing more.
    private func send(_ scheduled: [Int], to worker: Int, in state: inout State) {
        guard let run = state.run, state.workers.indices.contains(worker), let input = state.workers[worker].input
        else {
            return
        }
        if !scheduled.isEmpty {
            let lines = scheduled.map { "\(run.workerIndexes[$0])\n" }.joined()
            do {
                try input.write(contentsOf: Data(lines.utf8))
            } catch {
                // The worker is gone; its reader thread reports it.
            }
        }
        if run.schedule.isDone(worker) { Self.closeInput(of: &state.workers[worker]) }
    }

    /// Tells the worker it gets nothing more (its channel's end of input) and closes the pool's writing end.
    private static func closeInput(of worker: inout Worker) {
        guard let input = worker.input else { return }
        shutdown(input.fileDescriptor, Int32(SHUT_WR))
        try? input.close()
        worker.input = nil
    }

    /// Where a worker was, as its board slot says, in the plan's terms: the scenario, the step, its phase
    /// and the line the failure is reported at (the step's, else the scenario's).
    private func interrupted(_ progress: ProgressBoard.Progress, in state: State) -> ParallelSchedule.Interrupted? {
        guard let run = state.run, run.loaded.indices.contains(progress.scenario) else { return nil }
        let id = run.loaded[progress.scenario]
        let planned = run.planned[id]
        let step = progress.step.flatMap { step in
            planned.flatMap { $0.steps.indices.contains(step) ? $0.steps[step] : nil }
        }
        return .init(
            scenario: id,
            step: progress.step ?? 0,
            earlierStepsPassed: progress.earlierPassed,
            elapsed: progress.elapsed,
            phase: step?.phase ?? progress.phase,
            location: step?.location ?? planned?.location
        )
    }

    // MARK: Watchdog

    /// Reads the board every ``watchInterval``; the process of a worker past its time is killed, which
    /// fails its scenario with the reason ``overdue(_:in:now:)`` gives.
    private func startWatchdog() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = max(.milliseconds(10), min(Self.watchInterval, options.scenarioTimeout / 4))
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [self] in
            guard let board else { return }
            let now = ProgressBoard.now()
            let ending = state.withLock { state -> [pid_t] in
                var pids: [pid_t] = []
                for slot in state.workers.indices {
                    guard let process = state.workers[slot].process, state.workers[slot].killReason == nil,
                        let progress = board.running(in: slot), let reason = overdue(progress, in: state, now: now)
                    else { continue }
                    state.workers[slot].killReason = reason
                    pids.append(process.processIdentifier)
                }
                return pids
            }
            for pid in ending { kill(pid, SIGKILL) }
        }
        timer.resume()
        return timer
    }

    /// Why a worker doing `progress` must be ended now, if it must: its scenario ran past
    /// `--scenario-timeout`; its step ran past its timeout, the grace period and the ``reportingTime``
    /// (a worker whose thread is free reports such a step itself, and ends); or the run was cancelled
    /// while a set-up or scenario step ran, and that step still runs after the grace period and the
    /// ``cancelledReportingTime`` (tear-down runs in full, within its own timeouts).
    private func overdue(_ progress: ProgressBoard.Progress, in state: State, now: Int64) -> String? {
        let limit = options.scenarioTimeout
        if progress.elapsed >= limit {
            return "Did not finish within \(limit.shortSeconds) s (--scenario-timeout); its process was ended."
        }
        guard let stepStart = progress.stepStart, let stepElapsed = progress.stepElapsed else { return nil }
        let grace = options.cancellationGrace
        let step = stepName(progress, in: state)
        if progress.stepTimeout > .zero, stepElapsed >= progress.stepTimeout + grace + Self.reportingTime {
            return "Step \(step) blocked its thread for longer than its \(progress.stepTimeout.shortSeconds) s timeout "
                + "and the \(grace.shortSeconds) s grace period; its process was ended."
        }
        if let cancelled = state.cancelledAt, stepStart <= cancelled, !progress.phase.isAfterScenario,
            Duration.nanoseconds(now - cancelled) >= grace + Self.cancelledReportingTime
        {
            return "Run cancelled; step \(step) blocked its thread and ignored cancellation. Its process was ended."
        }
        return nil
    }

    /// The running step's description in quotes, from the plan (`'step 3'` when the plan has none).
    private func stepName(_ progress: ProgressBoard.Progress, in state: State) -> String {
        let step = progress.step ?? 0
        guard let run = state.run, run.loaded.indices.contains(progress.scenario),
            let planned = run.planned[run.loaded[progress.scenario]], planned.steps.indices.contains(step)
        else { return "'step \(step + 1)'" }
        return "'\(planned.steps[step].description)'"
    }

    // MARK: Describing an end

    /// Why a worker ended, as a sentence: the crash message it wrote, the signal, or its exit status.
    static func describe(_ exit: Exit, runningAScenario: Bool) -> String {
        let subject = runningAScenario ? "The process running this scenario" : "It"
        let message = crashMessage(in: exit.standardErrorTail)
        if let signal = exit.signal {
            let name = signalName(signal)
            if let message { return "\(subject) crashed: \(message) (signal \(signal), \(name))." }
            return "\(subject) was ended by signal \(signal) (\(name))."
        }
        if let message { return "\(subject) exited with status \(exit.status): \(message)" }
        return "\(subject) exited with status \(exit.status)"
            + (runningAScenario ? " before the scenario finished." : ".")
    }

    /// The runtime's last report of a fatal error in `text` (`Fatal error: …`, `Precondition failed: …`).
    static func crashMessage(in text: String) -> String? {
        let markers = ["Fatal error", "Precondition failed", "Assertion failed", "Unexpectedly found nil"]
        for line in text.split(separator: "\n").reversed() {
            guard let marker = markers.compactMap({ line.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound })
            else {
                continue
            }
            return String(line[marker.lowerBound...]).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
        ]
        return names[number] ?? "signal \(number)"
    }
}

/// A worker's standard error: passed on as it comes (unless the live runner owns the terminal), the
/// last few kilobytes kept to explain a crash.
private final class StandardErrorTail: Sendable {
    private let kept = Mutex(Data())
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func read(_ handle: FileHandle, forwarding: Bool) {
        while true {
            let chunk = WorkerPool.nextChunk(of: handle)
            if chunk.isEmpty { return }
            if forwarding { Terminal.write(chunk, to: .standardError) }
            kept.withLock { kept in
                kept.append(chunk)
                if kept.count > limit { kept = Data(kept.suffix(limit)) }
            }
        }
    }

    var text: String { String(decoding: kept.withLock { $0 }, as: UTF8.self) }
}

/// A pipe whose creation fails with an error rather than a crash (Foundation's `Pipe()` traps when
/// pipe(2) fails); both ends close on exec and when their handle is released.
private struct Channel {
    let reading: FileHandle
    let writing: FileHandle

    /// Why a pipe could not be made, with the open-file limit when that is what ran out.
    struct Failure: Error, CustomStringConvertible {
        var description: String

        /// The failure of the last system call, in words.
        static func last(_ what: String) -> Failure {
            let reason = String(cString: strerror(errno))
            var limit = rlimit()
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
            let note = getrlimit(resource, &limit) == 0 ? " (ulimit -n is \(limit.rlim_cur))" : ""
            return Failure(description: "\(what): \(reason)\(note)")
        }
    }

    init() throws(Failure) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .last("no pipe to it") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }
}

/// A worker's channel: a socket pair, the pool's end read and written through descriptors of their own
/// (so the writing one can be closed while the reader goes on), the worker's end its standard input.
/// Every descriptor closes on exec and when its handle is released.
private struct SocketChannel {
    let reading: FileHandle
    let writing: FileHandle
    let workers: FileHandle

    init() throws(Channel.Failure) {
        var ends: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw .last("no channel to it") }
        let duplicate = fcntl(ends[0], F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            let failure = Channel.Failure.last("no channel to it")
            for end in ends { close(end) }
            throw failure
        }
        reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: duplicate, closeOnDealloc: true)
        workers = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }
}
