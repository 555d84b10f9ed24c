import Foundation
package import Scenarios
import Synchronization

/// An exit the runner did not make, in a run whose scenarios run in this process (`--in-process`,
/// `KIF_SKIP_TEAR_DOWN`): app code that calls `exit(0)` would end the run with status 0 and no
/// summary, no JUnit. The guard follows the run's events; an exit handler (`on_exit`) installed while
/// it is armed fails the scenario that was running ("App code called exit(0) during step 'X'."),
/// reports the rest skipped, prints the summary, writes the reports (`finish`) and ends the process
/// with status 1. The runner's own exits disarm it first (``disarm()``: `ScenarioRun.main`, a
/// second Ctrl-C). Workers need none: their parent reports an exit.
///
/// ```swift
/// let guard = AppExitGuard(report: consume, finish: { try? finish($0) })
/// guard.arm()
/// let summary = await runner.run(scenarios) { guard.handle($0); consume($0) }
/// ```
package final class AppExitGuard: Sendable {
    private struct State {
        /// The run's plan, shared with the reporters' (searched only when the app exits).
        var plan = RunPlan(scenarios: [])
        /// The run's totals, and what has finished.
        var tally = RunTally()
        /// The scenario running, its step (the last started), and since when.
        var current: (id: ScenarioID, step: Int?, since: ContinuousClock.Instant)?
        var start = ContinuousClock.now
        /// The run's own summary, once it has finished.
        var ended: RunSummary?
    }

    private let state = Mutex(State())
    private let report: @Sendable (RunEvent) -> Void
    private let finish: @Sendable (RunSummary) -> Void

    /// The armed guard, which the exit handler reads (one at a time; `nil` when none).
    private static let armed = Mutex<AppExitGuard?>(nil)
    private static let installed = Mutex(false)

    /// `report` gets the events the exit completes (as the reporters get the run's); `finish` writes the
    /// reports and the state file, as at the end of any run.
    package init(report: @escaping @Sendable (RunEvent) -> Void, finish: @escaping @Sendable (RunSummary) -> Void) {
        self.report = report
        self.finish = finish
    }

    /// From now on, an exit nobody disarmed is the app's.
    package func arm() {
        Self.installed.withLock { installed in
            guard !installed else { return }
            installed = true
            on_exit({ status, _ in AppExitGuard.exited(status: status) }, nil)
        }
        Self.armed.withLock { $0 = self }
    }

    /// The runner exits (or the run is over): nothing to report.
    package static func disarm() {
        armed.withLock { $0 = nil }
    }

    /// Follows the run: what runs, what finished.
    package func handle(_ event: RunEvent) {
        // What it follows: the run's start and end, each scenario's, each step's start (not even the lock
        // for the rest).
        switch event {
        case .runStarted, .scenarioStarted, .stepStarted, .scenarioFinished, .runFinished: break
        case .stepFinished, .stepWaiting, .attemptFinished, .log, .requests, .requestLog: return
        }
        state.withLock { state in
            state.tally.record(event)
            switch event {
            case .runStarted(let plan):
                let tally = state.tally
                state = State()
                state.tally = tally
                state.plan = plan
            case .scenarioStarted(let id, _):
                state.current = (id, nil, .now)
            case .stepStarted(let id, let step, _):
                if state.current?.id == id { state.current?.step = step }
            case .scenarioFinished(let id, _, _):
                if state.current?.id == id { state.current = nil }
            case .runFinished(let summary):
                state.ended = summary
            default:
                break
            }
        }
    }

    private static func exited(status: Int32) {
        guard
            let guarding = armed.withLock({ armed in
                defer { armed = nil }
                return armed
            })
        else { return }
        guarding.appExited(status: status)
        fflush(nil)
        _exit(1)
    }

    /// What the app's exit leaves unsaid: the running scenario's failure, the rest skipped, the summary.
    private func appExited(status: Int32) {
        let (events, summary) = state.withLock { state -> ([RunEvent], RunSummary) in
            if let ended = state.ended {
                Terminal.printError("error: App code called exit(\(status)) after the run.")
                return ([], ended)
            }
            var events: [RunEvent] = []
            if let current = state.current {
                let planned = state.plan.scenarios.first { $0.id == current.id }
                let index = current.step ?? 0
                let step = planned.flatMap { $0.steps.indices.contains(index) ? $0.steps[index] : nil }
                let reason =
                    "App code called exit(\(status))" + (step.map { " during step '\($0.description)'." } ?? ".")
                events.append(
                    .stepFinished(
                        current.id,
                        step: index,
                        phase: step?.phase ?? .steps,
                        outcome: .failed(reason: reason, location: step?.location ?? planned?.location),
                        duration: .zero
                    )
                )
                let finished = RunEvent.scenarioFinished(
                    current.id,
                    outcome: .failed(step: index, reason: reason),
                    duration: ContinuousClock.now - current.since
                )
                state.tally.record(finished)
                events.append(finished)
            }
            // The rest skipped, and the totals: the tally's, as at the end of any run.
            events += state.tally.finish(duration: ContinuousClock.now - state.start, cancelled: false)
            return (events, state.tally.summary)
        }
        for event in events { report(event) }
        finish(summary)
    }
}
