/// What happens during a run, in order. Plain `Codable` values with stable ids (``ScenarioID`` and
/// step indexes into the plan), so that they can be streamed between processes.
package enum RunEvent: Sendable, Hashable, Codable {
    /// Every scenario of the run and its steps, before anything runs.
    case runStarted(RunPlan)
    /// A scenario (or a further try of it) starts; `worker` is the worker process it runs in (1, 2, …),
    /// `nil` in this process. The parent of the workers says it: a worker sends `nil`.
    case scenarioStarted(ScenarioID, worker: Int? = nil)
    case stepStarted(ScenarioID, step: Int, phase: StepPhase)
    /// A step answered *wait*; sent at most once per retry.
    case stepWaiting(ScenarioID, step: Int, reason: String, waited: Duration)
    case stepFinished(ScenarioID, step: Int, phase: StepPhase, outcome: StepOutcome, duration: Duration)
    /// A line a step logged.
    case log(ScenarioID, String)
    /// The distinct requests the stub server received during a try of a scenario (method and path, at most
    /// ``SentRequest/perScenario``), sent after its tear-down when there were any.
    case requests(ScenarioID, [SentRequest])
    /// Every request the stub server received during a try of a scenario, with its answer (at most
    /// ``LoggedRequest/perScenario``; `dropped` says how many more there were), sent after its tear-down
    /// when the run asked for it (``RunSettings/requestLog``) and there were any.
    case requestLog(ScenarioID, [LoggedRequest], dropped: Int)
    /// A try of a scenario run more than once (`--repeat`, `--retries`) ended, and another follows
    /// (it starts with `scenarioStarted` again). The last try ends with `scenarioFinished`.
    case attemptFinished(ScenarioID, attempt: Int, outcome: ScenarioOutcome, duration: Duration)
    /// Also sent, without `scenarioStarted`, for scenarios that are skipped.
    case scenarioFinished(ScenarioID, outcome: ScenarioOutcome, duration: Duration)
    case runFinished(RunSummary)
}

extension RunEvent {
    /// The scenario the event is about; `nil` for the run-level events.
    package var scenario: ScenarioID? {
        switch self {
        case .runStarted, .runFinished:
            nil
        case .scenarioStarted(let id, _), .stepStarted(let id, _, _), .stepWaiting(let id, _, _, _),
            .stepFinished(let id, _, _, _, _), .log(let id, _), .requests(let id, _), .requestLog(let id, _, _),
            .attemptFinished(let id, _, _, _), .scenarioFinished(let id, _, _):
            id
        }
    }
}
