/// Where an app's code runs, when the process says (`ScenarioRun` does, first thing).
///
/// A run's own work — the runner, the built-in steps, the object manager, the stub server — runs its
/// jobs as Swift's generic executor on the one event loop, so a call into a `nonisolated async`
/// function costs nothing. An app's code is not trusted so far: a step or its background work that
/// loops on `try? await Task.sleep(…)` after being cancelled never suspends (the sleep throws at once),
/// and on one loop it would hold the thread the run's timers need. So an app's step actions, the work
/// they launch (`ScenarioWorld.launch`) and the app's async code the package calls itself (set-up and
/// tear-down hooks, a reachability probe: ``run(_:)``) run on ``executor``, which goes back through the
/// loop's queue at every `await` of such a call: the run's own jobs always get their turn.
///
/// `nil` (a test process, or a runtime whose global executor could not be taken over) runs them as
/// any task: on the global executor, which is then a pool of threads.
package enum AppCode {
    /// Set once, before the first task starts; read when a task for app code is made.
    nonisolated(unsafe) package static var executor: (any TaskExecutor)?

    /// Runs `body` — an app's async code that the package's own code calls — on ``executor``, so that
    /// every `await` in it goes back through the loop's queue; as it is when there is none.
    ///
    /// ```swift
    /// for hook in hooks { try await AppCode.run { try await hook(manager) } }
    /// ```
    package static func run<Value, Failure: Error>(
        _ body: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        guard let executor else { return try await body() }
        return try await withTaskExecutorPreference(executor, operation: body)
    }

    /// A new task running `operation` on `executor` when there is one, else as any task. Use it rather
    /// than `Task(executorPreference:)`, which records a preference even for `nil`; a task with one takes
    /// the runtime's status-record lock at each of its hops (about 80 a scenario, DECISIONS 214).
    ///
    /// ```swift
    /// let appsWork = AppCode.task(on: AppCode.executor) { await hook() }   // back through the loop at each await
    /// let ownWork = AppCode.task(on: nil) { await send() }                 // a plain task
    /// ```
    package static func task(
        on executor: (any TaskExecutor)?,
        _ operation: sending @escaping () async -> Void
    ) -> Task<Void, Never> {
        guard let executor else { return Task(operation: operation) }
        return Task(executorPreference: executor, operation: operation)
    }
}
