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
    public var description: String {
        get { definition.description }
        set { unique().description = newValue }
    }
    /// Where the step was written; `nil` for steps that come from settings or code.
    public var location: SourceLocation?
    /// How long the step may keep answering *wait*; `nil` uses the run's step timeout.
    public var timeout: Duration? {
        get { definition.timeout }
        set { unique().timeout = newValue }
    }
    /// One attempt at the step. Thrown errors fail the step with the error's description.
    public var action: @Sendable (ScenarioContext) async throws -> StepResult {
        get { definition.action }
        set { unique().action = newValue }
    }
    /// How the runner calls a step's action.
    package enum Call: Sendable, Equatable {
        /// Raced against its timeout in a task of its own, as an app's code (on `AppCode.executor`): an
        /// app's steps, and any step that may block.
        case racedAsAppCode
        /// Raced likewise, but as the run's own work: the package's own code that runs the app code it
        /// calls through `AppCode.run` itself — the default set-up and tear-down, around the app's hooks —
        /// so that only that code goes back through the event loop's queue at each `await`.
        case racedAsOwnWork
        /// Called inline, without a task and a timer entry: the action returns promptly by construction —
        /// it only reads state, changes the object manager's own settings or launches work in the
        /// background, and calls no app code.
        case inline
    }
    /// How the runner calls the action. Only the package's built-in steps say other than
    /// ``Call/racedAsAppCode``.
    package var call: Call {
        get { definition.call }
        set { unique().call = newValue }
    }
    /// Whether this step is an expectation that may give up before its timeout once the app has
    /// settled: when an attempt answers *wait* and, before it looked, no work a step started was
    /// running, the request queue was empty, every idling resource of the app was idle, and nothing
    /// changed for the run's settle time (`settle time:` in `scenario-run.yml`, 0.5 s by default), the
    /// runner fails it with its wait reason and says it gave up early. The runner takes that reading,
    /// not the step, so a late finish is never missed. Built-in expectations settle; mark an app's own
    /// expectation with ``givingUpWhenSettled()``.
    public var settles: Bool {
        get { definition.settles }
        set { unique().settles = newValue }
    }
    /// The entity of the object this step binds with `as:`, when its definition knows it at load time
    /// (`create from factory` knows its factory's entity): later `${name.attribute}` references are
    /// then checked against that entity's attributes and relationships, with a suggestion.
    public var boundEntity: String? {
        get { definition.boundEntity }
        set { unique().boundEntity = newValue }
    }

    /// Everything but the location, kept once for every place a step built once is written (a loaded
    /// suite keeps each scenario's steps for the whole run: a step is its location and one reference).
    /// Copied before a change when shared, so a step is still a value.
    private var definition: Definition

    private final class Definition: @unchecked Sendable {
        // Changed only through `unique()`, when no other step shares it: immutable once shared.
        var description: String
        var timeout: Duration?
        var action: @Sendable (ScenarioContext) async throws -> StepResult
        var call = Call.racedAsAppCode
        var settles = false
        var boundEntity: String?

        init(
            description: String,
            timeout: Duration?,
            action: @escaping @Sendable (ScenarioContext) async throws -> StepResult
        ) {
            self.description = description
            self.timeout = timeout
            self.action = action
        }

        func copy() -> Definition {
            let copy = Definition(description: description, timeout: timeout, action: action)
            copy.call = call
            copy.settles = settles
            copy.boundEntity = boundEntity
            return copy
        }
    }

    /// The definition, copied first if another step shares it.
    private mutating func unique() -> Definition {
        if !isKnownUniquelyReferenced(&definition) { definition = definition.copy() }
        return definition
    }

    /// Makes a step whose `action` runs with the scenario's context; see the example above.
    ///
    /// - Parameters:
    ///   - description: What the step does, as reports show it.
    ///   - location: Where the step was written, for failures; `nil` for a step made in code.
    ///   - timeout: How long the step may keep answering *wait*; `nil` for the run's step timeout.
    ///   - action: What the step does: it returns ``StepResult/success``, a failure, or a reason to wait.
    public init(
        _ description: String,
        location: SourceLocation? = nil,
        timeout: Duration? = nil,
        action: @escaping @Sendable (ScenarioContext) async throws -> StepResult
    ) {
        self.definition = Definition(description: description, timeout: timeout, action: action)
        self.location = location
    }

    /// This step, marked as an expectation that gives up once the app has settled (``settles``).
    ///
    /// ```swift
    /// Step("expect 3 loans") { context in
    ///     let count = try await loans(in: context).count
    ///     return count == 3 ? .success : .wait("\(count) loans, expected 3")
    /// }.givingUpWhenSettled()
    /// ```
    public func givingUpWhenSettled() -> Step {
        var step = self
        step.settles = true
        return step
    }

    /// This step as a description only: its action gone, everything a report says of it kept. What a
    /// process keeps of steps it shows but never runs (the parent of worker processes, which load and
    /// run their own): a built action holds what its arguments resolved to. Run anyway, it fails saying
    /// so.
    package var describedOnly: Step {
        var step = self
        step.action = Self.noAction
        return step
    }

    private static let noAction: @Sendable (ScenarioContext) async throws -> StepResult = { _ in
        .failure("This step was loaded without its action: this process only reports steps its workers run.")
    }

    /// This step, called inline (``Call/inline``): its action returns promptly by construction.
    package func returningPromptly() -> Step {
        var step = self
        step.call = .inline
        return step
    }

    /// This step, raced as the run's own work (``Call/racedAsOwnWork``): it runs the app code it calls on
    /// that code's executor itself.
    package func runningAppCodeItself() -> Step {
        var step = self
        step.call = .racedAsOwnWork
        return step
    }
}
