import Diagnostics
package import Scenarios

/// The worker pool's decisions as a plain value, in SwiftNIO's state-machine style: what happens goes
/// in — the workers launched, a run started, a worker's lines, its end, Ctrl-C, the watchdog's reading
/// of the progress board — and the actions to take come out, for ``WorkerPool`` to carry out (processes,
/// channels, signals, reporters) with no lock held. Who runs which scenario is ``ParallelSchedule``'s;
/// this adds the processes' lives: which slot has a process and an open input, which process was ended
/// and why, which are surplus, which died before the run began, which to replace.
///
/// A launch is taken to succeed (the scenarios given to the slot follow it); one that fails is reported
/// back with ``launchFailed(_:reason:)``, which hands its scenarios to the others.
///
/// ```swift
/// var machine = WorkerPoolMachine(options)
/// perform(machine.start())                                    // [.launch(0), .launch(1)]
/// perform(machine.run(request))                               // each worker's header and first indexes
/// perform(machine.received(lines, from: 0))                   // events to emit, indexes to send
/// perform(machine.exited(0, exit, progress: board.running(in: 0)))   // its failure, a replacement
/// ```
package struct WorkerPoolMachine: Sendable {
    /// What the pool must do, in order.
    package enum Action: Equatable, Sendable {
        /// Start a worker process in the slot (its run line first on its channel).
        case launch(slot: Int)
        /// Write these lines on the worker's channel.
        case write(slot: Int, String)
        /// End the worker's input: it gets nothing more.
        case closeInput(slot: Int)
        /// SIGKILL the slot's process: it is past its time, surplus, or the run is abandoned.
        case kill(slot: Int)
        /// SIGTERM the slot's process: the run is cancelled (the worker tears its scenario down).
        case terminate(slot: Int)
        /// Clear the slot's progress board: its process is gone.
        case clearBoard(slot: Int)
        /// Report this event.
        case emit(RunEvent)
        /// Show what the app printed between scenarios (a line).
        case output(String)
        /// Say this on standard error, as `error: …`.
        case reportError(String)
        /// Say this on standard error, as `note: …`: nothing failed.
        case note(String)
        /// The run is over: every worker has ended.
        case finish(RunSummary)
    }

    package struct Options: Sendable {
        package var jobs: Int
        /// Whether the workers' own output is shown (the live runner, which owns the terminal, keeps it out).
        package var forwardOutput: Bool
        /// How long one scenario may run before its process is ended.
        package var scenarioTimeout: Duration
        /// How long a step may go on after its timeout or the run's cancellation.
        package var cancellationGrace: Duration

        package init(
            jobs: Int,
            forwardOutput: Bool = true,
            scenarioTimeout: Duration = .seconds(120),
            cancellationGrace: Duration = .seconds(1)
        ) {
            self.jobs = jobs
            self.forwardOutput = forwardOutput
            self.scenarioTimeout = scenarioTimeout
            self.cancellationGrace = cancellationGrace
        }
    }

    /// A run as the pool starts it: its plan, whose scenarios (in run order) the workers are handed,
    /// each by its position in the plan (the position a worker's board slot then says).
    package struct RunRequest: Sendable {
        package var plan: RunPlan
        package var failFast: Bool

        package init(plan: RunPlan, failFast: Bool = false) {
            self.plan = plan
            self.failFast = failFast
        }
    }

    /// How many scenarios a lone worker holds ahead.
    static let singleWorkerPrefetch = 1024
    /// How many scenarios each of several workers holds at most, and about how much work
    /// (``ParallelSchedule/holdLimit``): two at first, more once their scenarios prove short.
    static let workersPrefetch = 64
    static let workersHoldTime: Duration = .milliseconds(40)
    /// How long a worker gets, past a step's timeout and grace period, to report the step itself
    /// before the pool ends its process: one whose step holds its thread never does.
    static let reportingTime: Duration = .seconds(1)
    /// The same after Ctrl-C: a cancelled run ends within two seconds.
    static let cancelledReportingTime: Duration = .milliseconds(500)
    /// How long a worker that has reported every scenario it was given, and will be given none, has to
    /// end before the pool ends it: the run's results are all in, and nothing may keep the run from
    /// ending (an app's exit handler that hangs, a deadlock in shutting a library down).
    package static let exitTime: Duration = .seconds(10)

    private struct Slot {
        /// A process was started in it and has not been seen to end.
        var running = false
        /// Its channel still takes indexes.
        var inputOpen = false
        /// Why the pool ended this process itself, if it did (a scenario past its timeout).
        var killReason: String?
        /// Whether it finished a scenario: a worker that never did is not replaced when it dies.
        var finishedAny = false
        /// Whether the run has fewer scenarios than workers and this one was ended before it ran any.
        var isSurplus = false
        /// Since when (CLOCK_MONOTONIC nanoseconds) the watchdog has seen it with nothing left to run.
        var doneSince: Int64?
        /// Whether the pool ended it for not ending within ``exitTime`` of its last scenario.
        var lingered = false
    }

    private struct Run {
        var schedule: ParallelSchedule
        /// The plan's scenarios, in the schedule's order: a position is an index into both.
        var plan: RunPlan
    }

    package let options: Options
    private var slots: [Slot]
    private var run: Run?
    /// Workers that ended before the run began (while loading), with what their board said.
    private var exitedEarly: [(slot: Int, exit: WorkerExit, progress: WorkerProgress?)] = []
    /// Processes started and not yet ended.
    private var alive = 0
    /// Why workers ended without it being any scenario's failure (the run fails with exit status 1).
    package private(set) var failures: [String] = []
    private var abandoned = false
    /// Runs started so far: a later run starts new workers (the live runner's re-runs).
    private var runs = 0
    /// When this run was cancelled (CLOCK_MONOTONIC nanoseconds, as the board's times).
    private var cancelledAt: Int64?

    package init(_ options: Options) {
        self.options = options
        slots = Array(repeating: Slot(), count: max(1, options.jobs))
    }

    /// Every worker starts at once, so that they load the scenario files while the pool's process does.
    package mutating func start() -> [Action] {
        slots.indices.flatMap { launch($0) }
    }

    /// A launch the pool could not carry out: said once per run (the same reason would repeat for every
    /// slot), a failure of the run; what the slot was given goes to the others.
    package mutating func launchFailed(_ slot: Int, reason: String) -> [Action] {
        guard slots.indices.contains(slot), slots[slot].running else { return [] }
        slots[slot].running = false
        slots[slot].inputOpen = false
        alive -= 1
        var actions: [Action] = []
        let message = "A worker process could not start: \(reason)"
        if !failures.contains(message) {
            failures.append(message)
            actions.append(.reportError(message))
        }
        if let (events, resend) = run?.schedule.workerExited(slot, failure: message) {
            actions += events.map(Action.emit)
            for (other, scenarios) in resend { actions += send(scenarios, to: other) }
        }
        return actions + finishIfDone()
    }

    /// Starts a run of `request` on `needed` workers (at most one per scenario; the others are ended
    /// before they run anything). A later run starts new workers: the previous run's have all ended.
    package mutating func run(_ request: RunRequest) -> [Action] {
        var actions: [Action] = []
        // A cancel before the first run (a signal while the files loaded) cancels it; one after a run does
        // not carry into the next (the live runner's re-runs).
        let cancelledBeforeRun = runs == 0 && cancelledAt != nil
        runs += 1
        if !cancelledBeforeRun { cancelledAt = nil }
        let needed = min(slots.count, max(1, request.plan.scenarios.count))
        if runs > 1, !abandoned {
            exitedEarly = []
            for slot in slots.indices {
                slots[slot] = Slot()
                actions.append(.clearBoard(slot: slot))
                if slot < needed { actions += launch(slot) } else { slots[slot].isSurplus = true }
            }
        }
        for slot in slots.indices where slot >= needed { actions += endSurplus(slot) }
        run = Run(
            // One worker needs no balancing: it is handed scenarios far ahead, so it never waits for the
            // next index (two or more are handed two at a time at first, to whichever is free, then about
            // 40 ms of work each; with fail-fast, two at a time throughout: a failure in one worker lets
            // the others finish only what they run and the one they hold, as the docs say).
            schedule: ParallelSchedule(
                scenarios: request.plan.scenarios.map(\.id),
                workers: needed,
                prefetch: needed == 1 ? Self.singleWorkerPrefetch : request.failFast ? 2 : Self.workersPrefetch,
                holdTime: needed == 1 || request.failFast ? nil : Self.workersHoldTime,
                failFast: request.failFast
            ),
            plan: request.plan
        )
        if cancelledBeforeRun { run?.schedule.cancel() }
        for slot in 0..<needed { actions += begin(slot) }
        let early = exitedEarly
        exitedEarly = []
        for (slot, exit, progress) in early { actions += endedDuringRun(slot, exit, progress: progress) }
        return actions + finishIfDone()
    }

    /// Lines a worker wrote: its events (forwarded, its scenario start said with which worker), and what
    /// the app printed between scenarios.
    package mutating func received(_ lines: [RunEventLines.Message], from slot: Int) -> [Action] {
        guard slots.indices.contains(slot) else { return [] }
        var actions: [Action] = []
        for line in lines {
            switch line {
            case .output(let text):
                // What the app printed between scenarios: shown, as in a serial run.
                if options.forwardOutput { actions.append(.output(text)) }
            case .end:
                // Its process's end, which ``WorkerProcess`` reports as ``exited(_:_:progress:)``.
                continue
            case .event(let event):
                // In place: a copy of the run would copy the schedule's arrays at every event.
                guard let (forward, next) = run?.schedule.handle(event, from: slot) else { continue }
                if case .scenarioFinished = event { slots[slot].finishedAny = true }
                if let forward {
                    // The worker's start, said with which worker (1-based, as its messages name it).
                    if case .scenarioStarted(let id, nil) = forward {
                        actions.append(.emit(.scenarioStarted(id, worker: slot + 1)))
                    } else {
                        actions.append(.emit(forward))
                    }
                }
                actions += send(next, to: slot)
            }
        }
        return actions
    }

    /// A worker's process ended; `progress` is what its board slot said then. Before the run it is
    /// remembered; during it, the scenario it was running fails with what ended it, and a new worker
    /// takes its place while scenarios are waiting.
    package mutating func exited(_ slot: Int, _ exit: WorkerExit, progress: WorkerProgress?) -> [Action] {
        guard slots.indices.contains(slot), slots[slot].running else { return [] }
        slots[slot].running = false
        alive -= 1
        var actions = closeInput(slot)
        if slots[slot].isSurplus {
            actions.append(.clearBoard(slot: slot))
        } else if run == nil {
            exitedEarly.append((slot, exit, progress))
        } else {
            actions += endedDuringRun(slot, exit, progress: progress)
        }
        return actions + finishIfDone()
    }

    /// Ctrl-C: nothing new is handed out; each worker cancels its running scenario (whose tear-down
    /// runs) and ends. A worker whose set-up or scenario step still runs a grace period later (it holds
    /// its thread, so it cannot see the cancellation) is ended by the watchdog (``tick(now:progress:)``).
    package mutating func cancel(now: Int64) -> [Action] {
        run?.schedule.cancel()
        if cancelledAt == nil { cancelledAt = now }
        var actions = slots.indices.flatMap { closeInput($0) }
        actions += slots.indices.filter { slots[$0].running }.map { Action.terminate(slot: $0) }
        return actions
    }

    /// Ends the workers without running anything more (the files could not be loaded, or a second
    /// interrupt): every worker is killed at once.
    package mutating func abandon() -> [Action] {
        abandoned = true
        var actions = slots.indices.flatMap { closeInput($0) }
        actions += slots.indices.filter { slots[$0].running }.map { Action.kill(slot: $0) }
        return actions
    }

    /// The watchdog's reading of the board (`progress` by slot, at `now`): the process of a worker past
    /// its time is killed, which fails its scenario with the reason ``overdue(_:now:)`` gives; so is one
    /// that has not ended ``exitTime`` after its last scenario, which fails nothing (a note says so).
    package mutating func tick(now: Int64, progress: [Int: WorkerProgress]) -> [Action] {
        var actions: [Action] = []
        for slot in slots.indices where slots[slot].running && slots[slot].killReason == nil {
            if let progress = progress[slot], let reason = overdue(progress, now: now) {
                slots[slot].killReason = reason
                actions.append(.kill(slot: slot))
                continue
            }
            guard !slots[slot].isSurplus, !slots[slot].inputOpen, run?.schedule.isDone(slot) == true else {
                slots[slot].doneSince = nil
                continue
            }
            let since = slots[slot].doneSince ?? now
            slots[slot].doneSince = since
            if Duration.nanoseconds(now - since) >= Self.exitTime {
                slots[slot].killReason = "Did not end within \(Self.exitTime.shortSeconds) s of its last scenario."
                slots[slot].lingered = true
                actions.append(.kill(slot: slot))
            }
        }
        return actions
    }

    // MARK: Steps of the transitions

    private mutating func launch(_ slot: Int) -> [Action] {
        slots[slot].running = true
        slots[slot].inputOpen = true
        alive += 1
        return [.launch(slot: slot)]
    }

    /// Ends a worker the run has no scenario for: killed while it loads the files (it holds nothing
    /// else), its exit expected.
    private mutating func endSurplus(_ slot: Int) -> [Action] {
        slots[slot].isSurplus = true
        return closeInput(slot) + (slots[slot].running ? [.kill(slot: slot)] : [])
    }

    /// Hands a (new) worker its first scenarios.
    private mutating func begin(_ slot: Int) -> [Action] {
        guard slots[slot].inputOpen, run != nil else { return [] }
        return send(run?.schedule.assignments(for: slot) ?? [], to: slot)
    }

    /// Sends scenarios to a worker, each by its position in the plan, its line and its identity
    /// (``ScenarioInput/append(index:id:line:source:to:)``); closes its input as soon as it will get nothing more
    /// (``ParallelSchedule/closeIfNothingMore(_:)``), before it has run what it holds.
    private mutating func send(_ scheduled: [Int], to slot: Int) -> [Action] {
        guard let run, slots.indices.contains(slot), slots[slot].inputOpen else { return [] }
        var actions: [Action] = []
        if !scheduled.isEmpty {
            var lines: [UInt8] = []
            lines.reserveCapacity(scheduled.count * 128)
            for position in scheduled {
                let planned = run.plan.scenarios[position]
                ScenarioInput.append(
                    index: position,
                    id: planned.id,
                    line: planned.location.line,
                    source: planned.itemSource,
                    to: &lines
                )
            }
            actions.append(.write(slot: slot, String(decoding: lines, as: UTF8.self)))
        }
        if self.run?.schedule.closeIfNothingMore(slot) == true { actions += closeInput(slot) }
        return actions
    }

    private mutating func closeInput(_ slot: Int) -> [Action] {
        guard slots[slot].inputOpen else { return [] }
        slots[slot].inputOpen = false
        return [.closeInput(slot: slot)]
    }

    /// A worker of the run ended: the scenario it was running fails with what ended it (the pool's own
    /// reason when the pool ended it), and a new worker takes its place while scenarios are waiting.
    private mutating func endedDuringRun(
        _ slot: Int,
        _ exit: WorkerExit,
        progress: WorkerProgress?
    ) -> [Action] {
        let running = progress.flatMap(interrupted)
        let failure = slots[slot].killReason ?? exit.describe(runningAScenario: true)
        // The process is gone: its slot of the board is stale.
        var actions: [Action] = [.clearBoard(slot: slot)]
        guard let (events, resend) = run?.schedule.workerExited(slot, running: running, failure: failure) else {
            return actions
        }
        actions += events.map(Action.emit)
        for (other, scenarios) in resend { actions += send(scenarios, to: other) }

        if slots[slot].lingered {
            actions.append(
                .note(
                    "Worker process \(slot + 1) did not end within \(Self.exitTime.shortSeconds) s of its last "
                        + "scenario and was ended; every scenario it ran is reported."
                )
            )
        } else if running == nil, !exit.endedItself, !abandoned, cancelledAt == nil {
            // (A worker asked to end by a cancel is no failure, however it ends outside a scenario.)
            let message = "Worker process \(slot + 1) ended: \(exit.describe(runningAScenario: false))"
            failures.append(message)
            actions.append(.reportError(message))
        }
        // A worker that had done work, or died in a scenario (whose failure is reported), is replaced;
        // one that never got going (it could not load, say) would only fail again.
        let replace = running != nil || slots[slot].finishedAny || exit.status == WorkerExit.abandonedStepStatus
        if replace, !abandoned, run?.schedule.hasWork == true {
            slots[slot] = Slot()
            actions += launch(slot)
            run?.schedule.workerReplaced(slot)
            actions += begin(slot)
        }
        return actions
    }

    /// Once every worker has ended: the skipped scenarios, and the end of the run.
    private mutating func finishIfDone() -> [Action] {
        guard alive == 0, let (skipped, summary) = run?.schedule.finish() else { return [] }
        run = nil
        return skipped.map(Action.emit) + [.finish(summary)]
    }

    /// Where a worker was, as its board slot says, in the plan's terms: the scenario, the step, its phase
    /// and the line the failure is reported at (the step's, else the scenario's).
    private func interrupted(_ progress: WorkerProgress) -> ParallelSchedule.Interrupted? {
        guard let run, run.plan.scenarios.indices.contains(progress.scenario) else { return nil }
        let planned = run.plan.scenarios[progress.scenario]
        let step = progress.step.flatMap { planned.steps.indices.contains($0) ? planned.steps[$0] : nil }
        return .init(
            scenario: planned.id,
            step: progress.step ?? 0,
            earlierStepsPassed: progress.earlierPassed,
            elapsed: progress.elapsed,
            phase: step?.phase ?? progress.phase,
            location: step?.location ?? planned.location
        )
    }

    /// Why a worker doing `progress` must be ended now, if it must: its scenario ran past
    /// `--scenario-timeout`; its step ran past its timeout, the grace period and the ``reportingTime``
    /// (a worker whose thread is free reports such a step itself, and ends); or the run was cancelled
    /// while a set-up or scenario step ran, and that step still runs after the grace period and the
    /// ``cancelledReportingTime`` (tear-down runs in full, within its own timeouts).
    private func overdue(_ progress: WorkerProgress, now: Int64) -> String? {
        let limit = options.scenarioTimeout
        if progress.elapsed >= limit {
            return "Did not finish within \(limit.shortSeconds) s (--scenario-timeout); its process was ended."
        }
        guard let stepStart = progress.stepStart, let stepElapsed = progress.stepElapsed else { return nil }
        let grace = options.cancellationGrace
        let step = stepName(progress)
        if progress.stepTimeout > .zero, stepElapsed >= progress.stepTimeout + grace + Self.reportingTime {
            return "Step \(step) blocked its thread for longer than its \(progress.stepTimeout.shortSeconds) s timeout "
                + "and the \(grace.shortSeconds) s grace period; its process was ended."
        }
        if let cancelled = cancelledAt, stepStart <= cancelled, !progress.phase.isAfterScenario,
            Duration.nanoseconds(now - cancelled) >= grace + Self.cancelledReportingTime
        {
            return "Run cancelled; step \(step) blocked its thread and ignored cancellation. Its process was ended."
        }
        return nil
    }

    /// The running step's description in quotes, from the plan (`'step 3'` when the plan has none).
    private func stepName(_ progress: WorkerProgress) -> String {
        let step = progress.step ?? 0
        guard let run, run.plan.scenarios.indices.contains(progress.scenario),
            run.plan.scenarios[progress.scenario].steps.indices.contains(step)
        else { return "'step \(step + 1)'" }
        return "'\(run.plan.scenarios[progress.scenario].steps[step].description)'"
    }
}
