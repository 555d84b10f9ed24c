public import Diagnostics

/// One step of a scenario: a description, where it was written, and an action that returns a ``StepResult``.
///
/// ```swift
/// let step = Step("expect three reviews", location: nil) { context in
///     count == 3 ? .success : .wait("Have \(count) reviews, want 3")
/// }
/// ```
public struct Step: Sendable {
    /// What the step does, as shown in reports (`stub route Review POST to /422`).
    public var description: String
    /// Where the step was written; `nil` for steps that come from settings or code.
    public var location: SourceLocation?
    /// How long the step may keep answering *wait*; `nil` uses the run's step timeout.
    public var timeout: Duration?
    /// One attempt at the step. Thrown errors fail the step with the error's description.
    public var action: @Sendable (ScenarioContext) async throws -> StepResult
    /// Whether the action returns promptly by construction — it only reads state, changes the object
    /// manager's own settings or launches work in the background, and calls no app code — so the runner
    /// may call it inline instead of racing it against its timeout in a task of its own. Only the
    /// package's built-in steps say so; an app's steps are always raced.
    package var returnsPromptly = false

    public init(
        _ description: String,
        location: SourceLocation? = nil,
        timeout: Duration? = nil,
        action: @escaping @Sendable (ScenarioContext) async throws -> StepResult
    ) {
        self.description = description
        self.location = location
        self.timeout = timeout
        self.action = action
    }

    /// This step, marked as returning promptly (``returnsPromptly``).
    package func returningPromptly() -> Step {
        var step = self
        step.returnsPromptly = true
        return step
    }
}
