import Foundation
package import Scenarios
import Synchronization

/// The worker pool without processes — its twin for tests, as NIO's embedded channel is to its
/// sockets: the same ``WorkerPoolMachine`` hands the scenarios out to `jobs` workers, refills them and
/// ends the run, and each worker runs the scenarios it is written (each line checked as a worker checks
/// it: the scenario at that position of the plan, at that line) with a ``ScenarioRunner`` of this
/// process, its events encoded and decoded as on the wire (``RunEventLines``). Workers take turns, one scenario at a time (they share the process's object
/// manager), in slot order. What has no twin here is what only processes have: crashes, signals, the
/// progress board, a thread held past its timeout — ``WorkerPoolMachineTests`` script those.
///
/// ```swift
/// let workers = InMemoryWorkers(runner: runner, jobs: 2)
/// let summary = await workers.run(selected, plan: runner.plan(selected)) { print($0) }
/// ```
package final class InMemoryWorkers: RunExecutor {
    private let runner: ScenarioRunner
    private let jobs: Int
    private let cancelled = Mutex(false)

    /// `jobs` workers, each running with `runner` (whose settings' fail-fast the hand-out follows, as
    /// the pool follows the run's).
    package init(runner: ScenarioRunner, jobs: Int) {
        self.runner = runner
        self.jobs = jobs
    }

    /// What the workers were written and what they reported, as a worker process would keep it.
    private struct Workers {
        var pending: [Int: [Int]] = [:]
        var inputOpen: Set<Int> = []
        var running: Set<Int> = []
        var summary: RunSummary?
    }

    package func run(
        _ scenarios: [Scenario],
        plan: RunPlan,
        emit: @escaping @Sendable (RunEvent) -> Void
    ) async -> RunSummary {
        let start = ContinuousClock.now
        emit(.runStarted(plan))
        var machine = WorkerPoolMachine(.init(jobs: max(1, jobs), forwardOutput: false))
        var workers = Workers()
        func perform(_ actions: [WorkerPoolMachine.Action]) {
            for action in actions {
                switch action {
                case .launch(let slot):
                    workers.running.insert(slot)
                    workers.inputOpen.insert(slot)
                    workers.pending[slot] = []
                case .write(let slot, let text):
                    for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
                        // As a worker reads it: the scenario named must be the one at its position and line.
                        guard let handed = ScenarioInput.parse(Data(line)),
                            scenarios.indices.contains(handed.index),
                            scenarios[handed.index].id == handed.id,
                            scenarios[handed.index].location.line == handed.line,
                            scenarios[handed.index].itemSource == handed.source
                        else { preconditionFailure("a worker was handed a line that names no scenario of the run") }
                        workers.pending[slot, default: []].append(handed.index)
                    }
                case .closeInput(let slot):
                    workers.inputOpen.remove(slot)
                case .kill(let slot), .terminate(let slot):
                    // Nothing runs between two scenarios here: a worker told to end ends now.
                    workers.pending[slot] = []
                    workers.inputOpen.remove(slot)
                case .clearBoard, .output, .reportError, .note:
                    break
                case .emit(let event):
                    emit(event)
                case .finish(let summary):
                    workers.summary = summary
                }
            }
        }
        perform(machine.start())
        perform(
            machine.run(.init(plan: plan, failFast: runner.settings.failFast))
        )
        var cancelling = false
        while workers.summary == nil {
            if !cancelling, cancelled.withLock({ $0 }) {
                cancelling = true
                perform(machine.cancel(now: 0))
            }
            if let slot = workers.running.sorted().first(where: { !(workers.pending[$0] ?? []).isEmpty }) {
                let index = workers.pending[slot, default: []].removeFirst()
                let lines = Mutex<[RunEventLines.Message]>([])
                await runner.run([scenarios[index]]) { event in
                    // As on the wire: encoded by the worker, decoded by the pool (run-level events are not sent).
                    guard let line = RunEventLines.encode(event),
                        let message = RunEventLines.decodeMessage(line.dropLast())
                    else { return }
                    lines.withLock { $0.append(message) }
                }
                perform(machine.received(lines.withLock { $0 }, from: slot))
            } else if let slot = workers.running.sorted().first(where: { !workers.inputOpen.contains($0) }) {
                // Its input ended and it ran everything: the worker ends, as a process does.
                workers.running.remove(slot)
                perform(machine.exited(slot, WorkerExit(), progress: nil))
            } else {
                preconditionFailure("every worker waits for input the machine will not send")
            }
        }
        var summary = workers.summary ?? RunSummary()
        summary.duration = ContinuousClock.now - start
        emit(.runFinished(summary))
        return summary
    }

    package func cancel() {
        cancelled.withLock { $0 = true }
        runner.cancel()
    }
}
