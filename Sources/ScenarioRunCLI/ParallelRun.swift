import Foundation
import Scenarios
import Steps
import Synchronization

/// The parent side of `scenario-run --jobs N`: this process is worker 0 and runs its share in-process;
/// N − 1 worker processes (`scenario-run worker`), each with its own stub server and shared instances,
/// are fed scenario indexes through their standard input; everyone's events (the processes' read from
/// their standard output) are merged into one run for the reporters.
///
/// The bookkeeping — who runs what, crashed workers, fail-fast, skipped scenarios — is
/// ``ParallelSchedule``'s; this type owns the processes, the pipes and the threads that read them.
final class ParallelRun: Sendable {
    /// Worker 0 is this process (its scenarios go to `local`); the others are processes.
    private struct Worker {
        var process: Process?
        var input: FileHandle?
        var local: AsyncStream<Scenario>.Continuation?
    }

    /// What `run` brings: the schedule, the index each scheduled scenario has in the workers' list,
    /// where events go, and who waits for the end.
    private struct Run {
        var schedule: ParallelSchedule
        var scenarios: [Scenario]
        var workerIndexes: [Int]
        var emit: @Sendable (RunEvent) -> Void
        var finished: CheckedContinuation<RunSummary, Never>
    }

    private struct State {
        var workers: [Worker] = []
        var run: Run?
        /// Workers that exited before the run began (while loading), with why.
        var exitedEarly: [(worker: Int, reason: String)] = []
        var exited = 0
        /// Workers that ended on a signal or a non-zero status during the run (not by `abandon()`).
        var failures: [String] = []
        var abandoned = false
    }

    /// What the reader threads hand over: a worker's lines, or its end.
    private enum Message {
        case lines(worker: Int, [Line])
        case exited(worker: Int, reason: String, abnormal: Bool)
    }

    private let jobs: Int
    private let state = Mutex(State())
    /// Messages from the readers, handled in arrival order by whichever reader finds no one else handling.
    private let inbox = Mutex<(pending: [Message], handling: Bool)>(([], false))

    /// Starts `jobs` − 1 worker processes at once, so that they load the scenario files while this
    /// process does; `arguments` follow `worker` (paths and project options).
    init(jobs: Int, arguments: [String]) {
        self.jobs = max(2, jobs)
        signal(SIGPIPE, SIG_IGN)  // a worker that died must not take the parent with it
        let (stream, continuation) = AsyncStream.makeStream(of: Scenario.self)
        self.localScenarios = stream
        state.withLock { $0.workers.append(Worker(local: continuation)) }
        for index in 1..<self.jobs { launch(index, arguments: ["worker"] + arguments) }
    }

    /// The scenarios this process runs itself, as the schedule hands them to worker 0.
    private let localScenarios: AsyncStream<Scenario>

    /// Why workers ended abnormally during the run; a run with any fails (exit status 1).
    var workerFailures: [String] { state.withLock { $0.failures } }

    /// Ends the workers without running anything (this process could not load the files).
    func abandon() {
        let processes = state.withLock { state -> [Process] in
            state.abandoned = true
            for index in state.workers.indices {
                try? state.workers[index].input?.close()
                state.workers[index].input = nil
                state.workers[index].local?.finish()
            }
            return state.workers.compactMap(\.process)
        }
        for process in processes where process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs `scenarios` (the plan is announced first) and returns the totals once every worker has exited.
    ///
    /// - Parameters:
    ///   - scenarios: the selected scenarios, in run order.
    ///   - loaded: every scenario the workers load (the selection's superset, in load order).
    ///   - runner: runs this process's share (worker 0), on its own stub server.
    func run(
        _ scenarios: [Scenario],
        loaded: [Scenario],
        plan: RunPlan,
        failFast: Bool,
        runner: ScenarioRunner,
        emit: @escaping @Sendable (RunEvent) -> Void
    ) async -> RunSummary {
        let start = ContinuousClock.now
        emit(.runStarted(plan))
        let interrupts = InterruptHandler(
            onFirst: { [self] in
                Terminal.printError("\nCancelling: the running scenarios' tear-down runs, the rest are skipped (Ctrl-C again to quit now).")
                cancel(runner)
            },
            onSecond: { [self] in abandon() }
        )
        // Worker 0: this process. Its events skip the pipes; its end is reported like a worker's exit.
        let local = Task { [self, localScenarios] in
            await runner.run(arriving: localScenarios) { event in
                self.deliver(.lines(worker: 0, [.event(event)]))
            }
            deliver(.exited(worker: 0, reason: "exit status 0", abnormal: false))
        }
        let position = Dictionary(loaded.enumerated().map { ($1.id, $0) }) { first, _ in first }
        var summary = await withCheckedContinuation { (continuation: CheckedContinuation<RunSummary, Never>) in
            state.withLock { state in
                state.run = Run(
                    schedule: ParallelSchedule(scenarios: scenarios.map(\.id), workers: jobs, failFast: failFast),
                    scenarios: scenarios,
                    workerIndexes: scenarios.map { position[$0.id] ?? -1 },
                    emit: emit,
                    finished: continuation
                )
                for worker in state.workers.indices {
                    if let input = state.workers[worker].input {
                        try? input.write(contentsOf: Data("#\(loaded.count)\n".utf8))
                    }
                    send(state.run?.schedule.assignments(for: worker) ?? [], to: worker, in: &state)
                }
                let early = state.exitedEarly
                state.exitedEarly = []
                for (worker, reason) in early { exited(worker, reason: reason, in: &state) }
                finishIfDone(&state)
            }
        }
        await local.value
        interrupts.cancel()
        summary.duration = ContinuousClock.now - start
        emit(.runFinished(summary))
        return summary
    }

    // MARK: Workers

    private func launch(_ index: Int, arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            Terminal.printError("error: Could not start a worker process: \(error)")
            state.withLock { state in
                state.workers.append(Worker(process: process, input: nil))
                exited(index, reason: "it could not start", in: &state)
            }
            return
        }
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        state.withLock { $0.workers.append(Worker(process: process, input: input.fileHandleForWriting)) }
        let reader = Thread { [self] in
            read(output.fileHandleForReading, from: index)
            process.waitUntilExit()
            let bySignal = process.terminationReason == .uncaughtSignal
            let reason = bySignal ? "signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
            deliver(.exited(worker: index, reason: reason, abnormal: bySignal || process.terminationStatus != 0))
        }
        reader.start()
    }

    /// Reads JSON lines of run events until the worker closes its output; other lines are passed on.
    /// A worker writes a scenario's events at once; they are decoded here, on the reader's thread.
    private func read(_ handle: FileHandle, from worker: Int) {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            var lines: [Line] = []
            var consumed = buffer.startIndex
            while let newline = buffer[consumed...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[consumed..<newline]
                // Something other than an event (an app's own output) is shown, as in a serial run.
                lines.append(RunEventLines.decode(line).map(Line.event) ?? .other(Data(buffer[consumed...newline])))
                consumed = newline + 1
            }
            buffer = Data(buffer[consumed...])
            if !lines.isEmpty { deliver(.lines(worker: worker, lines)) }
        }
    }

    private enum Line {
        case event(RunEvent)
        case other(Data)
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
                case .other(let text):
                    Terminal.write(text, to: .standardOutput)
                case .event(let event):
                    // In place: a copy of the run would copy the schedule's arrays at every event.
                    guard let (forward, next) = state.run?.schedule.handle(event, from: worker), let emit = state.run?.emit
                    else { continue }
                    for event in forward { emit(event) }
                    send(next, to: worker, in: &state)
                }
            }
        case .exited(let worker, let reason, let abnormal):
            if abnormal && !state.abandoned {
                let message = "Worker process \(worker) ended (\(reason))."
                state.failures.append(message)
                Terminal.printError("error: \(message)")
            }
            exited(worker, reason: reason, in: &state)
            finishIfDone(&state)
        }
    }

    /// A worker ended: before the run it is remembered; during it, the schedule decides what that means.
    private func exited(_ worker: Int, reason: String, in state: inout State) {
        if state.workers.indices.contains(worker) {
            try? state.workers[worker].input?.close()
            state.workers[worker].input = nil
            state.workers[worker].local?.finish()
            state.workers[worker].local = nil
        }
        guard let (events, resend) = state.run?.schedule.workerExited(worker, reason: reason), let emit = state.run?.emit
        else {
            state.exitedEarly.append((worker, reason))
            return
        }
        for event in events { emit(event) }
        for (other, scenarios) in resend { send(scenarios, to: other, in: &state) }
        state.exited += 1
    }

    /// Once every worker has exited: the skipped scenarios, and the end of ``run``.
    private func finishIfDone(_ state: inout State) {
        guard state.exited == jobs, let (skipped, summary) = state.run?.schedule.finish(), let run = state.run else { return }
        for event in skipped { run.emit(event) }
        state.run = nil
        run.finished.resume(returning: summary)
    }

    /// Sends scenario indexes to a worker; closes its input once it will get nothing more.
    private func send(_ scheduled: [Int], to worker: Int, in state: inout State) {
        guard let run = state.run, state.workers.indices.contains(worker) else { return }
        if let local = state.workers[worker].local {
            for index in scheduled { local.yield(run.scenarios[index]) }
            if run.schedule.isDone(worker) {
                local.finish()
                state.workers[worker].local = nil
            }
            return
        }
        guard let input = state.workers[worker].input else { return }
        if !scheduled.isEmpty {
            let lines = scheduled.map { "\(state.run?.workerIndexes[$0] ?? -1)\n" }.joined()
            do {
                try input.write(contentsOf: Data(lines.utf8))
            } catch {
                // The worker is gone; its reader thread reports it.
            }
        }
        if state.run?.schedule.isDone(worker) == true {
            try? input.close()
            state.workers[worker].input = nil
        }
    }

    // MARK: Stopping

    /// Ctrl-C: nothing new is handed out; each worker cancels its running scenario (whose tear-down runs).
    private func cancel(_ runner: ScenarioRunner) {
        let processes = state.withLock { state -> [Process] in
            state.run?.schedule.cancel()
            for index in state.workers.indices {
                try? state.workers[index].input?.close()
                state.workers[index].input = nil
                state.workers[index].local?.finish()
                state.workers[index].local = nil
            }
            return state.workers.compactMap(\.process)
        }
        runner.cancel()
        for process in processes where process.isRunning { process.terminate() }
    }
}
