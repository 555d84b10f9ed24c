/// What one attempt at a step came to, in KIF's vocabulary. A reason is always required.
public enum StepResult: Sendable, Hashable {
    /// The step did what it says.
    case success
    /// The step failed; the scenario's remaining steps are skipped.
    case failure(String)
    /// Not yet: the runner retries the step until its timeout, then fails it with this reason.
    case wait(String)
}
