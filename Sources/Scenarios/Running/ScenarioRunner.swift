package import Diagnostics
import Foundation
import SharedValues
import Synchronization

/// Runs scenarios one after another and reports what happens as ``RunEvent``s.
///
/// Each scenario runs its default set-up steps, the file's `set up`, its own steps, the file's
/// `tear down`, then the default tear-down steps; a scenario with a `skip:` reason is reported skipped
/// without running. A step answering *wait* is retried every ``RunSettings/retryInterval`` (or at once
/// when its context signals a change) until its timeout. The first failure skips the remaining steps;
/// tear-down always runs (also when the run is cancelled) unless ``RunSettings/skipTearDown``. Given a
/// leak check, `check for leaks` runs last and fails the scenario when the check finds anything
/// (``RunSettings/leaks``: `warn` reports it as ``StepOutcome/warned(reason:)``, `off` leaves the step out).
///
/// ```swift
/// let runner = try ScenarioRunner(registry: registry, settings: settings) { context in
///     context[WorldKey.self] = World()
/// }
/// for await event in runner.events(running: scenarios) { reporter.handle(event) }
/// ```
package final class ScenarioRunner: Sendable {
    private struct State {
        var cancelled = false
        var task: Task<RunSummary, Never>?
        /// A scenario's tear-down runs in ``task``: a cancel marks the run and leaves the task alone.
        var tearingDown = false
    }

    package let settings: RunSettings
    package let clock: any Clock<Duration>
    package let environment: [String: String]
    private let prepare: @Sendable (ScenarioContext) async -> Void
    /// The requests a try of a scenario sent, read after its tear-down (a ``RunEvent/requests(_:_:)``).
    private let sentRequests: (@Sendable (ScenarioContext) -> [SentRequest])?
    /// A try's request log, read after its tear-down when ``RunSettings/requestLog`` asks for it (a
    /// ``RunEvent/requestLog(_:_:dropped:)``), told whether the try failed: the logged requests and how many
    /// more there were.
    private let requestLog: (@Sendable (ScenarioContext, _ failed: Bool) -> (requests: [LoggedRequest], dropped: Int))?
    /// Called after a scenario whose step went on running past its timeout and cancellation has been
    /// reported, before anything else runs: a worker process ends itself there (the step cannot be
    /// stopped any other way). Without it, tear-down runs beside the stray action and the run goes on.
    private let onAbandonedStep: (@Sendable () -> Void)?
    private let defaultSetUp: [Step]
    private let defaultTearDown: [Step]
    /// `check for leaks`, run after the tear-down steps; `nil` without a check or with `leaks: off`.
    private let leakCheck: Step?
    /// What every step that passed (set-up, steps, tear-down) must also pass: why it fails, or `nil` — the
    /// API's document holding the requests sent so far.
    private let stepCheck: (@Sendable (ScenarioContext) -> StepCheckFailure?)?
    private let state = Mutex(State())

    /// Makes a runner; `prepare` is called with every scenario's fresh context before its first step,
    /// so that step modules can hang their world on it; `sentRequests`, after its tear-down, says which
    /// requests it sent, and `requestLog` what they were and what was answered; `stepCheck`, after each step that passed, whether it fails after all.
    package init(
        registry: StepRegistry,
        settings: RunSettings = RunSettings(),
        clock: any Clock<Duration> = ContinuousClock(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        buildContext: StepBuildContext = StepBuildContext(),
        onAbandonedStep: (@Sendable () -> Void)? = nil,
        leakCheck: (@Sendable (ScenarioContext) async throws -> [String])? = nil,
        sentRequests: (@Sendable (ScenarioContext) -> [SentRequest])? = nil,
        requestLog: (@Sendable (ScenarioContext, _ failed: Bool) -> (requests: [LoggedRequest], dropped: Int))? = nil,
        stepCheck: (@Sendable (ScenarioContext) -> StepCheckFailure?)? = nil,
        prepare: @escaping @Sendable (ScenarioContext) async -> Void = { _ in }
    ) throws(DiagnosticList) {
        self.sentRequests = sentRequests
        self.requestLog = settings.requestLog ? requestLog : nil
        self.stepCheck = stepCheck
        self.onAbandonedStep = onAbandonedStep
        self.settings = settings
        self.clock = clock
        self.environment = environment
        self.prepare = prepare
        self.leakCheck = settings.leaks == .off ? nil : leakCheck.map(Self.leakStep)
        (self.defaultSetUp, self.defaultTearDown) = try Self.defaultSteps(
            settings: settings,
            registry: registry,
            buildContext: buildContext
        )
    }

    /// The default set-up and tear-down steps the settings name, built; every unknown name or step
    /// that needs arguments is a diagnostic at the name in `scenario-run.yml` (when it came from there).
    package static func defaultSteps(
        settings: RunSettings,
        registry: StepRegistry,
        buildContext: StepBuildContext
    ) throws(DiagnosticList) -> (setUp: [Step], tearDown: [Step]) {
        var problems: [Diagnostic] = []
        func build(_ names: [String], sources: [Diagnostic.Source], key: String) -> [Step] {
            var steps: [Step] = []
            for (index, name) in names.enumerated() {
                let source =
                    sources.indices.contains(index)
                    ? sources[index]
                    : Diagnostic.Source(location: SourceLocation(file: key, line: 1, column: 1), sourceLine: nil)
                guard let definition = registry.definition(named: name) else {
                    problems.append(
                        Diagnostic(
                            "Unknown step '\(name)' in '\(key)'." + Suggestions.didYouMean(name, in: registry.names),
                            at: source
                        )
                    )
                    continue
                }
                do throws(StepArgumentError) {
                    var step = try definition.build(.none(stepName: definition.name, at: source.location), buildContext)
                    if !sources.isEmpty { step.location = source.location }
                    steps.append(step)
                } catch {
                    problems.append(
                        Diagnostic(
                            "Step '\(name)' in '\(key)' cannot run without arguments: \(error.message)",
                            at: source
                        )
                    )
                }
            }
            return steps
        }
        let setUp = build(settings.defaultSetUp, sources: settings.defaultSetUpSources, key: "default set up")
        let tearDown = build(
            settings.defaultTearDown,
            sources: settings.defaultTearDownSources,
            key: "default tear down"
        )
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return (setUp, tearDown)
    }

    /// The step that runs `check` after tear-down: it passes when the check finds nothing, else fails
    /// with every leak, `; `-separated (`3 Review rows; route Review POST still points to /422`).
    static func leakStep(_ check: @escaping @Sendable (ScenarioContext) async throws -> [String]) -> Step {
        Step("check for leaks") { context in
            let leaks = try await check(context)
            return leaks.isEmpty ? .success : .failure(leaks.joined(separator: "; "))
        }
    }

    // MARK: Plan

    /// Every step a scenario runs, in order, with its phase: its lists as loaded, between the run's default
    /// set-up and tear-down (no list made for each scenario).
    func steps(of scenario: Scenario) -> ScenarioSteps {
        ScenarioSteps(
            defaultSetUp: defaultSetUp,
            setUp: scenario.setUp,
            steps: scenario.steps,
            tearDown: scenario.tearDown,
            defaultTearDown: defaultTearDown,
            leakCheck: leakCheck
        )
    }

    /// The timeout of every step a scenario runs, in the plan's order: its own `timeout:`, else the
    /// run's step timeout. A worker's parent ends the process of a step still running past it (and the
    /// grace period): a step that blocks its thread cannot be ended any other way.
    package func stepTimeouts(of scenario: Scenario) -> [Duration] {
        steps(of: scenario).map { $0.step.timeout ?? settings.stepTimeout }
    }

    /// The plan a run of `scenarios` announces in ``RunEvent/runStarted(_:)``. Its steps are read from
    /// each scenario's ``ScenarioSteps`` (``RunPlan/PlannedSteps``): no second copy of them.
    package func plan(_ scenarios: [Scenario]) -> RunPlan {
        RunPlan(
            scenarios: scenarios.map { scenario in
                RunPlan.PlannedScenario(
                    id: scenario.id,
                    feature: scenario.feature,
                    tags: scenario.tags.sorted(),
                    location: scenario.location,
                    steps: RunPlan.PlannedSteps(steps(of: scenario)),
                    skip: scenario.skip,
                    row: scenario.example?.row,
                    itemSource: scenario.itemSource
                )
            }
        )
    }

    // MARK: Running

    /// Runs `scenarios`, passing every event to `onEvent` as it happens; returns the totals.
    ///
    /// Cancelling the calling task has the same effect as ``cancel()``.
    @discardableResult
    package func run(_ scenarios: [Scenario], onEvent: @escaping @Sendable (RunEvent) -> Void) async -> RunSummary {
        await run(scenarios, plan: plan(scenarios), onEvent: onEvent)
    }

    /// Runs `scenarios` under the plan already made of them (``plan(_:)``): an executor handed the run's
    /// plan runs it, instead of making it again.
    @discardableResult
    package func run(_ scenarios: [Scenario], plan: RunPlan, onEvent: @escaping @Sendable (RunEvent) -> Void) async
        -> RunSummary
    {
        assert(plan.scenarios.map(\.id) == scenarios.map(\.id), "the plan is not of these scenarios")
        return await run(plan: plan, source: ScenarioSource(scenarios), onEvent: onEvent)
    }

    /// Runs scenarios as they arrive, until the stream ends — what a worker of a parallel run does with
    /// the scenarios its parent hands it. The run's plan is not known in advance, so `runStarted`
    /// announces an empty one; every other event is as in ``run(_:onEvent:)``. Cancelling ends the run
    /// once the current scenario's tear-down has run: scenarios that have not arrived yet are not
    /// reported (their sender knows which they are).
    @discardableResult
    package func run(arriving scenarios: AsyncStream<Scenario>, onEvent: @escaping @Sendable (RunEvent) -> Void) async
        -> RunSummary
    {
        await run(plan: RunPlan(scenarios: []), source: ScenarioSource(scenarios), onEvent: onEvent)
    }

    private func run(plan: RunPlan, source: ScenarioSource, onEvent: @escaping @Sendable (RunEvent) -> Void) async
        -> RunSummary
    {
        // A cancel before the first run (a signal while the files loaded) cancels it; one after a run does
        // not carry into the next (the live runner's re-runs).
        state.withLock { if $0.task != nil { $0.cancelled = false } }
        let task = Task { await self.perform(plan: plan, source: source, emit: onEvent) }
        let cancelledAlready = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelledAlready { task.cancel() }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            self.cancel()
        }
    }

    /// Runs `scenarios`, delivering every event through the stream (never dropped); the stream ends
    /// after ``RunEvent/runFinished(_:)``. Ending iteration early cancels the run.
    package func events(running scenarios: [Scenario]) -> AsyncStream<RunEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: RunEvent.self, bufferingPolicy: .unbounded)
        let task = Task {
            await self.run(scenarios) { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// Stops the run: the current step is interrupted, the current scenario's tear-down still runs,
    /// the remaining scenarios are skipped.
    package func cancel() {
        let task = state.withLock { state -> Task<RunSummary, Never>? in
            state.cancelled = true
            // During tear-down the mark is enough: every check reads it, and the task is cancelled after.
            return state.tearingDown ? nil : state.task
        }
        task?.cancel()
    }

    private var isCancelled: Bool {
        state.withLock { $0.cancelled } || Task.isCancelled
    }

    /// Whether tear-down may run in the run's own task: the run is not cancelled, and a cancel from now until
    /// ``endTearDown()`` only marks it (its task is cancelled after tear-down, so that no step of it sees
    /// that).
    private func beginTearDown() -> Bool {
        state.withLock { state in
            guard !state.cancelled, !Task.isCancelled else { return false }
            state.tearingDown = true
            return true
        }
    }

    /// Ends tear-down: a cancel that came during it now cancels the run's task.
    private func endTearDown() {
        let task = state.withLock { state -> Task<RunSummary, Never>? in
            defer { state.tearingDown = false }
            return state.tearingDown && state.cancelled ? state.task : nil
        }
        task?.cancel()
    }

    private func perform(plan: RunPlan, source: ScenarioSource, emit: @escaping @Sendable (RunEvent) -> Void) async
        -> RunSummary
    {
        let stopwatch = Stopwatch(clock)
        let timer = DeadlineTimer(clock: clock)
        defer { timer.shutDown() }
        // The totals are the tally's, counted from the scenarios' own ends: one each, so none is kept.
        let tally = Mutex(RunTally.counting())
        let emit: @Sendable (RunEvent) -> Void = { event in
            tally.withLock { $0.record(event) }
            emit(event)
        }
        emit(.runStarted(plan))
        var stopped = false
        while let scenario = await source.next() {
            // `skip:` in the file: reported skipped (the plan carries the reason), nothing runs.
            if stopped || isCancelled || scenario.skip != nil {
                emit(.scenarioFinished(scenario.id, outcome: .skipped, duration: .zero))
                continue
            }
            if case .failed = await runTries(scenario, timer: timer, emit: emit), settings.failFast { stopped = true }
        }
        // A worker's runner is planned with every scenario but runs the ones it is sent: only those count.
        var totals = tally.withLock { $0.summary }
        totals.duration = stopwatch.elapsed
        totals.cancelled = isCancelled
        emit(.runFinished(totals))
        return totals
    }

    /// Runs a scenario ``RunSettings/repetitions`` times in a row, each failing try re-run while
    /// ``RunSettings/retries`` are left (counted over the whole scenario). Every try but the last ends
    /// with ``RunEvent/attemptFinished(_:attempt:outcome:duration:)``, the last with `scenarioFinished`
    /// and the scenario's outcome: failed when a repetition failed on every try, else passed (flaky when
    /// some try failed — reporters tell that from the attempts).
    private func runTries(_ scenario: Scenario, timer: DeadlineTimer, emit: @escaping @Sendable (RunEvent) -> Void)
        async
        -> ScenarioOutcome
    {
        let total = Stopwatch(clock)
        var repetition = 1
        var retriesLeft = settings.retries
        var attempt = 0
        while true {
            attempt += 1
            let (outcome, last) = await run(scenario, attempt: attempt, total: total, timer: timer, emit: emit) {
                outcome,
                abandoned in
                if abandoned || isCancelled { return true }
                if case .failed = outcome { return retriesLeft == 0 }
                return repetition >= settings.repetitions
            }
            if last { return outcome }
            if case .failed = outcome {
                retriesLeft -= 1
            } else {
                repetition += 1
            }
        }
    }

    /// One try of a scenario; `isLast` decides, from its outcome and whether a step was abandoned,
    /// whether it ends the scenario (`scenarioFinished`, timed from `total`) or another try follows.
    private func run(
        _ scenario: Scenario,
        attempt: Int,
        total: Stopwatch,
        timer: DeadlineTimer,
        emit: @escaping @Sendable (RunEvent) -> Void,
        isLast: (ScenarioOutcome, Bool) -> Bool
    ) async -> (outcome: ScenarioOutcome, last: Bool) {
        let id = scenario.id
        let stopwatch = Stopwatch(clock)
        let context = ScenarioContext(
            scenario: id,
            clock: clock,
            timer: timer,
            environment: environment,
            stepTimeout: settings.stepTimeout
        ) { line in
            emit(.log(id, line))
        }
        emit(.scenarioStarted(id))
        await prepare(context)

        let all = steps(of: scenario)
        var failure: (step: Int, reason: String)?
        // A step whose action went on after its timeout and cancellation: with an `onAbandonedStep`
        // hook, nothing more runs in this process (tear-down would race the action).
        var abandoned = false
        // By index, each step read where it is in `all` (not copied out of it for each loop).
        for index in all.indices where !all[index].phase.isAfterScenario {
            let phase = all[index].phase
            // Cancelled between two steps: the scenario did not do what it says, so it fails here (its
            // other steps skipped) — never passed with steps left unrun.
            if failure == nil, isCancelled, !(abandoned && onAbandonedStep != nil) {
                let reason = "Run cancelled before this step."
                let cancelled = StepOutcome.failed(reason: reason, location: all[index].step.location)
                emit(.stepFinished(id, step: index, phase: phase, outcome: cancelled, duration: .zero))
                failure = (index, reason)
                continue
            }
            if failure != nil || isCancelled || (abandoned && onAbandonedStep != nil) {
                emit(.stepFinished(id, step: index, phase: phase, outcome: .skipped, duration: .zero))
                continue
            }
            let (outcome, leftRunning) = await execute(
                all[index].step,
                index: index,
                phase: phase,
                in: context,
                all: all,
                emit: emit
            )
            if case .failed(let reason, _) = outcome { failure = (index, reason) }
            abandoned = abandoned || leftRunning
        }

        // Tear-down, then the leak check: nothing is checked when tear-down is skipped.
        let tearDown = all.indices.filter { all[$0].phase.isAfterScenario }
        if settings.skipTearDown || (abandoned && onAbandonedStep != nil) {
            for index in tearDown {
                emit(.stepFinished(id, step: index, phase: all[index].phase, outcome: .skipped, duration: .zero))
            }
        } else {
            let tearDownSteps = { @Sendable () async -> (failure: (step: Int, reason: String)?, abandoned: Bool) in
                var failure: (step: Int, reason: String)?
                var abandoned = false
                for index in tearDown {
                    if abandoned && self.onAbandonedStep != nil {
                        emit(
                            .stepFinished(id, step: index, phase: all[index].phase, outcome: .skipped, duration: .zero)
                        )
                        continue
                    }
                    let (outcome, leftRunning) = await self.execute(
                        all[index].step,
                        index: index,
                        phase: all[index].phase,
                        in: context,
                        all: all,
                        emit: emit,
                        cancellable: false
                    )
                    if failure == nil, case .failed(let reason, _) = outcome { failure = (index, reason) }
                    abandoned = abandoned || leftRunning
                }
                return (failure, abandoned)
            }
            // Tear-down runs in full even when the run is cancelled meanwhile: in the run's own task, whose
            // cancellation ``cancel()`` holds back until it ends — or, when the run was cancelled already, in a
            // fresh task (a cancelled task's waits would end at once).
            let (tearDownFailure, tearDownAbandoned) =
                if beginTearDown() {
                    await tearDownSteps()
                } else {
                    await Task { await tearDownSteps() }.value
                }
            endTearDown()
            if failure == nil { failure = tearDownFailure }
            abandoned = abandoned || tearDownAbandoned
        }

        if let sent = sentRequests?(context), !sent.isEmpty {
            emit(.requests(id, SentRequest.distinct(sent)))
        }
        if let log = requestLog?(context, failure != nil), !log.requests.isEmpty || log.dropped > 0 {
            emit(.requestLog(id, log.requests, dropped: log.dropped))
        }
        let outcome: ScenarioOutcome = failure.map { .failed(step: $0.step, reason: $0.reason) } ?? .passed
        let last = isLast(outcome, abandoned)
        if last {
            emit(.scenarioFinished(id, outcome: outcome, duration: total.elapsed))
        } else {
            emit(.attemptFinished(id, attempt: attempt, outcome: outcome, duration: stopwatch.elapsed))
        }
        if abandoned, let onAbandonedStep { onAbandonedStep() }
        return (outcome, last)
    }

    /// Runs one step, retrying while it waits, and reports its start, waits and end.
    private func execute(
        _ step: Step,
        index: Int,
        phase: StepPhase,
        in context: ScenarioContext,
        all: ScenarioSteps,
        emit: @Sendable (RunEvent) -> Void,
        cancellable: Bool = true
    ) async -> (outcome: StepOutcome, abandoned: Bool) {
        let id = context.scenario
        emit(.stepStarted(id, step: index, phase: phase))
        context.beginStep(step.description)
        let stopwatch = Stopwatch(clock)
        let timeout = step.timeout ?? settings.stepTimeout
        var outcome: StepOutcome
        var abandoned = false
        var settling = SettleWatch(
            settleTime: step.settles ? settings.settleTime : nil,
            generation: context.changes.generation
        )
        attempts: while true {
            let generation = context.changes.generation
            // Read before the attempt looks, so work that ends while it looks is never taken for none.
            let activity = settling.isOn ? context.activity : nil
            let begun = stopwatch.elapsed
            let limit = timeout - begun
            let result: StepResult
            _ = context.takeRetryCondition()
            // The requests the step sends, also from work it starts, say it sent them.
            let origin = RequestOrigin(scenarioTry: context.scenarioTry, step: index)
            let attempted = await RequestOrigin.$current.withValue(origin) {
                await attempt(step, in: context, within: limit, cancellable: cancellable)
            }
            switch attempted {
            case .finished(.success(let answer)):
                result = answer
            case .finished(.failure(let error)):
                let reason = cancellable && isCancelled ? "Run cancelled." : String(describing: error)
                outcome = .failed(reason: reason, location: step.location)
                break attempts
            case .cancelledAndIgnored:
                // Cancelled (Ctrl-C, SIGTERM) and still running after the grace period: not waited for
                // until its timeout, so a signal ends the run in a second or two.
                var reason = "Run cancelled; the step ignored cancellation."
                if onAbandonedStep != nil { reason += " Its process was ended." }
                outcome = .failed(reason: reason, location: step.location)
                abandoned = true
                break attempts
            case .timedOut(let ignoredCancellation):
                var reason = "Did not finish within \(timeout.shortSeconds) s."
                if ignoredCancellation {
                    reason = "Did not finish within \(timeout.shortSeconds) s and ignored cancellation."
                    if onAbandonedStep != nil { reason += " Its process was ended." }
                }
                outcome = .failed(reason: reason, location: step.location)
                abandoned = ignoredCancellation
                break attempts
            }
            // A timeout cannot end an action that holds its thread (a blocking call, a busy loop): the
            // timer that would end it runs on that thread. Such an action is judged when it returns.
            let waited = stopwatch.elapsed
            if case .failure = result {
            } else if waited - begun > (limit > .zero ? limit : Self.lastLookAllowance) {
                outcome = .failed(reason: Self.blocked(step, took: waited, timeout: timeout), location: step.location)
                break attempts
            }
            switch result {
            case .success:
                outcome = .passed
                break attempts
            case .failure(let reason):
                outcome = .failed(reason: reason, location: step.location)
                break attempts
            case .wait(let reason):
                settling.attempted(
                    at: waited,
                    busy: activity != nil,
                    generationBefore: generation,
                    generationAfter: context.changes.generation
                )
                if waited >= timeout {
                    outcome = .failed(
                        reason: "Timed out after \(timeout.shortSeconds) s waiting: \(reason)"
                            + (activity.map { " (still running: \($0))" } ?? ""),
                        location: step.location
                    )
                    break attempts
                }
                if let settleTime = settling.settleTime, settling.hasSettled(at: waited) {
                    outcome = .failed(
                        reason:
                            "\(reason) (gave up after \(waited.shortSeconds) s, before the \(timeout.shortSeconds) s "
                            + "timeout: nothing was running and nothing changed for \(settleTime.shortSeconds) s)",
                        location: step.location
                    )
                    break attempts
                }
                if cancellable && isCancelled {
                    outcome = .failed(reason: "Run cancelled while waiting: \(reason)", location: step.location)
                    break attempts
                }
                emit(
                    .stepWaiting(
                        id,
                        step: index,
                        reason: reason + (activity.map { " (waiting on \($0))" } ?? ""),
                        waited: waited
                    )
                )
                let pause = min(settings.retryInterval, timeout - waited, settling.untilSettled(at: waited))
                // Retried at a change only once what the step said it waits for holds; at the pause's end in
                // any case.
                await context.pause(for: pause, orUntilChangeAfter: generation, when: context.takeRetryCondition())
            }
        }
        if case .passed = outcome, phase != .leakCheck, let stepCheck, let failure = stepCheck(context) {
            outcome = Self.failed(failure, at: index, step: step, all: all)
        }
        outcome = reported(outcome, phase: phase)
        emit(.stepFinished(id, step: index, phase: phase, outcome: outcome, duration: stopwatch.elapsed))
        return (outcome, abandoned)
    }

    /// A step that passed but whose check failed: located at the step that sent the failing request, named
    /// when that is an earlier one (work it started sent it after it returned).
    package static func failed(
        _ failure: StepCheckFailure,
        at index: Int,
        step: Step,
        all: ScenarioSteps
    )
        -> StepOutcome
    {
        guard let sender = failure.sender, sender != index, all.indices.contains(sender) else {
            return .failed(reason: failure.reason, location: step.location)
        }
        let sending = all[sender].step
        return .failed(
            reason: failure.reason + "; it was sent by the step '\(sending.description)'",
            location: sending.location ?? step.location
        )
    }

    /// How long the last look at a waiting step may take: the look taken once its timeout is reached
    /// (the pause before it ends at the timeout, never before), which has no time of its own left.
    static let lastLookAllowance: Duration = .milliseconds(100)

    /// Why a step that returned after its timeout failed, with how long it took.
    static func blocked(_ step: Step, took: Duration, timeout: Duration) -> String {
        "Step '\(step.description)' took \(took.shortSeconds) s, past its \(timeout.shortSeconds) s timeout; "
            + "it blocked its thread, so the timeout could not end it."
    }

    /// Under `leaks: warn`, whatever fails the leak check (leaks, or the check itself) is a warning.
    private func reported(_ outcome: StepOutcome, phase: StepPhase) -> StepOutcome {
        guard phase == .leakCheck, settings.leaks == .warn, case .failed(let reason, _) = outcome else {
            return outcome
        }
        return .warned(reason: reason)
    }

    /// How one call of a step's action ended.
    private enum Attempt: Sendable {
        case finished(Result<StepResult, any Error>)
        /// Still running at its time limit; whether it also went on past the grace period after being cancelled.
        case timedOut(ignoredCancellation: Bool)
        /// The run was cancelled and the action went on past the grace period after that.
        case cancelledAndIgnored
    }

    /// What ends the wait for an action the run's cancellation did not stop.
    private struct IgnoredCancellation: Error {}

    /// Calls `step`'s action once, for at most `limit`. The action runs in a task of its own, so that one
    /// that never returns cannot hold the run: at the limit it is cancelled and given
    /// ``RunSettings/cancellationGrace`` to end; one still running then is left behind (``Attempt/timedOut(ignoredCancellation:)``).
    private func attempt(_ step: Step, in context: ScenarioContext, within limit: Duration, cancellable: Bool) async
        -> Attempt
    {
        if step.call == .inline {
            // Built-in steps that call no app code: without a task and a timer entry per call.
            do {
                return .finished(.success(try await step.action(context)))
            } catch {
                return .finished(.failure(error))
            }
        }
        let ended = Eventual<Result<StepResult, any Error>>()
        // An app's step runs as an app's code; a built-in one that calls app code places that code itself.
        let action = AppCode.task(on: step.call == .racedAsOwnWork ? nil : AppCode.executor) {
            do {
                ended.resolve(.success(try await step.action(context)))
            } catch {
                ended.resolve(.failure(error))
            }
        }
        let grace = settings.cancellationGrace
        let result: Result<StepResult, any Error>?
        if cancellable {
            result = await withTaskCancellationHandler {
                await ended.value(within: max(limit, .zero), on: context.timer)
            } onCancel: {
                action.cancel()
                // The grace period, then no more waiting: the run's cancellation must not wait out the step.
                Task {
                    _ = await Eventual<Void>().value(within: grace, on: context.timer)
                    ended.resolve(.failure(IgnoredCancellation()))
                }
            }
        } else {
            // A step the run's cancellation does not interrupt (tear-down, the leak check): no handler.
            result = await ended.value(within: max(limit, .zero), on: context.timer)
        }
        if case .failure(let error)? = result, error is IgnoredCancellation { return .cancelledAndIgnored }
        // Ended by now, uncancelled: it ran past its limit and returned while the runner could not act
        // (an action that held the loop's thread, the timer's expiry queued behind it). Judged as returned.
        if let result = result ?? ended.current { return .finished(result) }
        action.cancel()
        let late = await ended.value(within: settings.cancellationGrace, on: context.timer)
        return .timedOut(ignoredCancellation: late == nil)
    }
}

/// The scenarios of a run, from an array or as they arrive; read by the run's one task only.
private final class ScenarioSource: @unchecked Sendable {
    private var array: IndexingIterator<[Scenario]>?
    private var stream: AsyncStream<Scenario>.Iterator?

    init(_ scenarios: [Scenario]) {
        array = scenarios.makeIterator()
    }

    init(_ scenarios: AsyncStream<Scenario>) {
        stream = scenarios.makeAsyncIterator()
    }

    func next() async -> Scenario? {
        if array != nil { return array?.next() }
        return await stream?.next()
    }
}
