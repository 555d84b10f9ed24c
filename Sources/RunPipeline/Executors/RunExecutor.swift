package import Scenarios

/// Where a run's scenarios run, behind one call: the selection and its plan go in, the run's one
/// stream of events comes out — `runStarted` with the plan first, `runFinished` last, every scenario
/// ended once between — and the totals, counted by the run's ``RunTally``. The headless run, the live
/// runner and `--watch` run every selection through one; reporters read only the stream.
///
/// - ``InProcessExecutor``: this process's runner (`--in-process`, `KIF_SKIP_TEAR_DOWN`, too few open
///   files for a worker).
/// - ``WorkerPool``: `--jobs N` worker processes.
/// - ``InMemoryWorkers``: the worker protocol without processes, for tests.
package protocol RunExecutor: Sendable {
    /// Runs `scenarios` (in run order) under `plan`, the plan made of them once (``ScenarioRunner/plan(_:)``),
    /// and returns the totals once every scenario has ended.
    func run(
        _ scenarios: [Scenario],
        plan: RunPlan,
        emit: @escaping @Sendable (RunEvent) -> Void
    ) async -> RunSummary

    /// Ctrl-C: nothing new starts; what runs is cancelled, its tear-down still runs.
    func cancel()
}

/// The scenarios run by this process's runner — the one the project's files give now (`--watch`
/// replaces it when they change).
package struct InProcessExecutor: RunExecutor {
    private let runner: @Sendable () -> ScenarioRunner

    package init(runner: @escaping @Sendable () -> ScenarioRunner) {
        self.runner = runner
    }

    package func run(
        _ scenarios: [Scenario],
        plan: RunPlan,
        emit: @escaping @Sendable (RunEvent) -> Void
    ) async -> RunSummary {
        await runner().run(scenarios, plan: plan, onEvent: emit)
    }

    package func cancel() {
        runner().cancel()
    }
}
