package import Diagnostics

/// Which scenario each worker process runs next, and what a parallel run reports when workers finish
/// scenarios, stop, or die — the bookkeeping of `scenario-run --jobs N`, without the processes.
///
/// Scenarios are handed out in order, a few at a time per worker (so a worker never waits for the next
/// one), to whichever worker finishes first. Workers stream the run events of their scenarios; the
/// schedule forwards them and answers with the scenarios to send next. A worker that exits with a
/// scenario started fails that scenario; the scenarios it had not started go back to the queue. With
/// fail-fast, or once cancelled, nothing new is handed out and what is left is reported as skipped.
///
/// ```swift
/// var schedule = ParallelSchedule(scenarios: ids, workers: 2)
/// for worker in 0..<2 { send(schedule.assignments(for: worker), to: worker) }
/// let (forward, next) = schedule.handle(event, from: worker)   // forward to reporters, send `next`
/// let (events, resend) = schedule.workerExited(worker, failure: "The process running this scenario crashed.")
/// let summary = schedule.finish()                                 // once every worker has exited
/// ```
package struct ParallelSchedule: Sendable {
    /// What a worker is running: scenarios sent to it, in order, the first one possibly started.
    private struct Worker {
        var assigned: [Int] = []
        var started: ScenarioID?
        var lastStep: Int?
        /// How many of the started scenario's first steps it reported finished.
        var reportedSteps = 0
        var alive = true
        /// It was told it gets nothing more (its input closed): it runs what it holds, then ends.
        var closed = false
    }

    package let scenarios: [ScenarioID]
    /// How many scenarios a worker holds at most (running plus waiting).
    package let prefetch: Int
    /// With several workers: how much work a worker holds, by the mean time of the scenarios finished so
    /// far (``holdLimit``); `nil`: always ``prefetch``.
    package let holdTime: Duration?
    package let failFast: Bool
    /// The scenarios finished so far (skipped ones too) and their time.
    private var finishedCount = 0
    private var finishedTime: Duration = .zero
    private var queue: [Int]
    private var workers: [Worker]
    private var stopped = false
    private var cancelled = false
    /// What finished, and the totals: the run's one count.
    private var tally: RunTally

    /// A schedule of `scenarios` (indexes into this array are what workers are sent).
    package init(
        scenarios: [ScenarioID],
        workers: Int,
        prefetch: Int = 2,
        holdTime: Duration? = nil,
        failFast: Bool = false
    ) {
        self.scenarios = scenarios
        self.prefetch = max(1, prefetch)
        self.holdTime = holdTime
        self.failFast = failFast
        self.queue = Array(scenarios.indices)
        self.workers = Array(repeating: Worker(), count: max(1, workers))
        self.tally = RunTally(scenarios: scenarios)
    }

    /// Takes scenarios from the queue for `worker` until it holds ``holdLimit``; empty once stopped. A
    /// worker that may hold many (four or more) is topped up only once it is down to half: one hand-over
    /// of half of them, not one per scenario it finished (each is a write to it and a wake-up of its input).
    package mutating func assignments(for worker: Int) -> [Int] {
        guard workers.indices.contains(worker), workers[worker].alive, !workers[worker].closed, !stopped else {
            return []
        }
        let limit = holdLimit
        let low = limit >= 4 ? limit / 2 : limit
        let held = workers[worker].assigned.count
        guard held < low else { return [] }
        let sent = Array(queue.prefix(limit - held))
        queue.removeFirst(sent.count)
        workers[worker].assigned += sent
        return sent
    }

    /// How many scenarios a worker may hold now: ``prefetch``; with a ``holdTime``, about that much work
    /// by the mean time of the scenarios finished so far (two before any finished, at most ``prefetch``)
    /// and at most its share of what is waiting, so that the workers end together (DECISIONS 189). A
    /// worker holding many sends its ends together (`EventLineWriter`): each end it sends wakes this
    /// process, and each hand-over wakes it.
    package var holdLimit: Int {
        guard let holdTime else { return prefetch }
        guard finishedCount > 0 else { return min(2, prefetch) }
        let alive = max(1, workers.count { $0.alive })
        let share = queue.count / alive + 1
        let mean = finishedTime / finishedCount
        let byTime = mean <= .zero ? prefetch : Int(min(Double(prefetch), (holdTime / mean).rounded(.up)))
        return max(min(2, prefetch), min(prefetch, byTime, share))
    }

    /// Whether `worker` has nothing to run and will be given nothing more: its input can be closed.
    /// A worker the schedule does not have (a surplus slot of the pool) is not done: it never started.
    package func isDone(_ worker: Int) -> Bool {
        guard workers.indices.contains(worker) else { return false }
        return workers[worker].assigned.isEmpty && (queue.isEmpty || stopped)
    }

    /// Whether `worker` will be given nothing more — every scenario is handed out, or the run stopped — in
    /// which case it is told so now (its input can be closed) rather than once it has run what it holds:
    /// its last scenario's end is then its own end, with no round trip to this process in between. The
    /// scenarios of a worker that dies later go to a new worker, never to one told it gets nothing more.
    package mutating func closeIfNothingMore(_ worker: Int) -> Bool {
        guard workers.indices.contains(worker), workers[worker].alive, queue.isEmpty || stopped else { return false }
        workers[worker].closed = true
        return true
    }

    /// Records an event from `worker`; returns the event to report, if it is one (run-level events of the
    /// worker are dropped: the parallel run has its own; so is a second end of a scenario), and the scenarios
    /// to send to it next.
    package mutating func handle(_ event: RunEvent, from worker: Int) -> (forward: RunEvent?, send: [Int]) {
        switch event {
        case .runStarted, .runFinished:
            return (nil, [])
        case .scenarioStarted(let id, _):
            workers[worker].started = id
            workers[worker].lastStep = nil
            workers[worker].reportedSteps = 0
        case .stepStarted(_, let step, _):
            workers[worker].lastStep = step
        case .stepFinished(_, let step, _, _, _):
            // The step after the last finished one is running (workers leave out step starts).
            workers[worker].lastStep = max(step + 1, workers[worker].lastStep ?? 0)
            workers[worker].reportedSteps = max(workers[worker].reportedSteps, step + 1)
        case .scenarioFinished(let id, let outcome, let duration):
            guard let index = tally.place(of: id), tally.end(at: index) == nil else { return (nil, []) }
            record(event, outcome)
            finishedCount += 1
            finishedTime += max(.zero, duration)
            workers[worker].assigned.removeAll { $0 == index }
            if workers[worker].started == id { workers[worker].started = nil }
            return (event, assignments(for: worker))
        case .stepWaiting, .log, .requests, .requestLog, .attemptFinished:
            break
        }
        return (event, [])
    }

    /// A worker's process ended: the scenario it was running fails with `failure` (unless it finished),
    /// the ones it had not started go to the workers still alive. `running` is what the process itself
    /// last said it was running (its progress board), when known: it wins over what its events said.
    /// Returns the events to report, and what to send to whom.
    package mutating func workerExited(
        _ worker: Int,
        running: Interrupted? = nil,
        failure: String
    ) -> (events: [RunEvent], send: [(worker: Int, scenarios: [Int])]) {
        guard workers.indices.contains(worker), workers[worker].alive else { return ([], []) }
        workers[worker].alive = false
        let started = running?.scenario ?? workers[worker].started
        var events: [RunEvent] = []
        var unstarted: [Int] = []
        for index in workers[worker].assigned where tally.end(at: index) == nil {
            if scenarios[index] == started {
                let step = running?.step ?? workers[worker].lastStep ?? 0
                let outcome = ScenarioOutcome.failed(step: step, reason: failure)
                // Before a step that ran after no failure, every step passed. A worker's events for them
                // reach this schedule even when it dies (its board keeps what it had not sent); only
                // without a board are they missing, and then they are reported passed, taking no time.
                if let running, running.earlierStepsPassed {
                    for earlier in min(workers[worker].reportedSteps, step)..<step {
                        events.append(
                            .stepFinished(
                                scenarios[index],
                                step: earlier,
                                phase: .steps,
                                outcome: .passed,
                                duration: .zero
                            )
                        )
                    }
                }
                events.append(
                    .stepFinished(
                        scenarios[index],
                        step: step,
                        phase: running?.phase ?? .steps,
                        outcome: .failed(reason: failure, location: running?.location),
                        duration: .zero
                    )
                )
                // How long it ran until its process ended (a --scenario-timeout: that long, not 0 s).
                let duration = running?.elapsed ?? .zero
                let finished = RunEvent.scenarioFinished(scenarios[index], outcome: outcome, duration: duration)
                record(finished, outcome)
                events.append(finished)
            } else {
                unstarted.append(index)
            }
        }
        workers[worker] = Worker(alive: false)
        queue.insert(contentsOf: unstarted, at: 0)
        var send: [(worker: Int, scenarios: [Int])] = []
        for other in workers.indices where workers[other].alive {
            let next = assignments(for: other)
            if !next.isEmpty { send.append((other, next)) }
        }
        return (events, send)
    }

    /// Where a worker's process was when it ended, as it said itself (its progress board).
    package struct Interrupted: Sendable {
        package var scenario: ScenarioID
        package var step: Int
        /// Whether no step of the scenario had failed.
        package var earlierStepsPassed: Bool
        /// How long the scenario had been running.
        package var elapsed: Duration
        /// The step's phase.
        package var phase: StepPhase
        /// Where the failure is reported: the step's line, else the scenario's (a scenario ended between
        /// its steps, or by a step written in no file).
        package var location: SourceLocation?

        package init(
            scenario: ScenarioID,
            step: Int,
            earlierStepsPassed: Bool,
            elapsed: Duration = .zero,
            phase: StepPhase = .steps,
            location: SourceLocation? = nil
        ) {
            self.scenario = scenario
            self.step = step
            self.earlierStepsPassed = earlierStepsPassed
            self.elapsed = elapsed
            self.phase = phase
            self.location = location
        }
    }

    /// Whether scenarios are still waiting for a worker: a worker that died is worth replacing.
    package var hasWork: Bool { !stopped && !queue.isEmpty }

    /// A new process took the place of `worker`, which had exited: it gets scenarios again.
    package mutating func workerReplaced(_ worker: Int) {
        guard workers.indices.contains(worker), !workers[worker].alive else { return }
        workers[worker] = Worker()
    }

    /// Stops handing out scenarios (Ctrl-C): what workers are running still finishes.
    package mutating func cancel() {
        cancelled = true
        stopped = true
    }

    /// Once every worker has exited: skipped events for every scenario that never finished, and the totals.
    package mutating func finish() -> (events: [RunEvent], summary: RunSummary) {
        queue = []
        let events = tally.skipUnfinished()
        var totals = tally.summary
        totals.cancelled = cancelled
        return (events, totals)
    }

    /// Counts a scenario's end; with fail-fast, a failure stops handing out scenarios.
    private mutating func record(_ finished: RunEvent, _ outcome: ScenarioOutcome) {
        tally.record(finished)
        if case .failed = outcome, failFast { stopped = true }
    }
}
