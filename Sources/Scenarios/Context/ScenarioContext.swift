import SharedValues
import Synchronization

/// The state of one scenario run, shared by its steps: bound names, typed storage for step modules,
/// the clock, the environment, logging, and a signal that wakes waiting steps.
///
/// ```swift
/// context.bind("place", to: restaurant)
/// let path = try context.interpolate("/restaurants/${place.restaurantID}")
/// context[StubJournalKey.self] = journal
/// ```
public final class ScenarioContext: Sendable {
    private struct State {
        var bindings: [String: any Bindable] = [:]
        /// Each value in a ``Stored`` of its key's value type.
        var storage: [ObjectIdentifier: any AnyObject & Sendable] = [:]
        var currentStep: String?
        var stepStart: Stopwatch?
        var activityProbe: (@Sendable () -> String?)?
        /// What the step that last answered `.wait` said its answer waits for (``retry(when:)``).
        var retryCondition: (@Sendable () -> Bool)?
        var stepSerial = 0
    }

    /// The scenario this context runs.
    public let scenario: ScenarioID
    /// The clock every wait and timeout uses.
    public let clock: any Clock<Duration>
    /// The process environment (or a test's stand-in).
    public let environment: [String: String]
    /// The run's step timeout (`--timeout`): how long a step, or an HTTP request a step makes, may take.
    public let stepTimeout: Duration
    /// This try of the scenario among every try in the process: what the requests its steps send carry
    /// (``RequestOrigin``).
    package let scenarioTry = RequestOrigin.nextScenarioTry()

    private let state = Mutex(State())
    private let logSink: @Sendable (String) -> Void
    let changes = ChangeSignal()
    /// Ends waits at their retry deadlines; the runner shares one across the scenarios of a run.
    let timer: DeadlineTimer

    /// Makes a context; the runner does this for every scenario, tests of step modules do it directly.
    public convenience init(
        scenario: ScenarioID,
        clock: any Clock<Duration> = ContinuousClock(),
        environment: [String: String] = [:],
        stepTimeout: Duration = .seconds(10),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(
            scenario: scenario,
            clock: clock,
            timer: DeadlineTimer(clock: clock),
            environment: environment,
            stepTimeout: stepTimeout,
            log: log
        )
    }

    init(
        scenario: ScenarioID,
        clock: any Clock<Duration>,
        timer: DeadlineTimer,
        environment: [String: String],
        stepTimeout: Duration = .seconds(10),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.scenario = scenario
        self.stepTimeout = stepTimeout
        self.clock = clock
        self.timer = timer
        self.environment = environment
        self.logSink = log
    }

    // MARK: Bindings

    /// Binds `name` (from `as: name`) to a value for later `${name}` references.
    public func bind(_ name: String, to value: any Bindable) {
        state.withLock { $0.bindings[name] = value }
    }

    /// The value bound to `name`, if any.
    public func binding(_ name: String) -> (any Bindable)? {
        state.withLock { $0.bindings[name] }
    }

    /// Replaces every `${name}` and `${name.key.path}` in `text` with the bound value.
    public func interpolate(_ text: String) throws(ScenarioContextError) -> String {
        let step = currentStep
        let parts: [Interpolation.Part]
        do {
            parts = try Interpolation.parse(text)
        } catch {
            throw .malformedReference(in: text, step: step)
        }
        var out = ""
        for part in parts {
            switch part {
            case .literal(let literal):
                out += literal
            case .reference(let name, let keyPath):
                guard let value = binding(name) else {
                    throw .unboundName(name, in: Interpolation.spelling(name: name, keyPath: keyPath), step: step)
                }
                guard let text = value.value(forKeyPath: keyPath) else {
                    throw .unknownAttribute(
                        keyPath,
                        of: name,
                        in: Interpolation.spelling(name: name, keyPath: keyPath),
                        step: step
                    )
                }
                out += text
            }
        }
        return out
    }

    // MARK: Storage

    /// Typed storage for step modules' state (object manager, stub journal, last response...).
    ///
    /// Stored in a box of the key's own value type, so a read takes the value out without a dynamic cast
    /// (`as? K.Value` from `any Sendable` cost a cast through the runtime at every read). Inlinable, over
    /// two methods that are not generic: each module that uses a key has the box made and opened for its
    /// value type where it is used, instead of looking `Stored<K.Value>` and `Optional<K.Value>` up at run
    /// time at every write (four a scenario, ~2 k instructions each).
    @inlinable
    package subscript<K: ContextKey>(key: K.Type) -> K.Value? {
        get {
            guard let stored = box(for: ObjectIdentifier(key)) else { return nil }
            return unsafeDowncast(stored, to: Stored<K.Value>.self).value
        }
        set {
            store(newValue.map { Stored($0) }, for: ObjectIdentifier(key))
        }
    }

    /// The box stored for a key, if any.
    @usableFromInline
    func box(for key: ObjectIdentifier) -> (any AnyObject & Sendable)? {
        state.withLock { $0.storage[key] }
    }

    /// Stores a key's box, or removes it (`nil`).
    @usableFromInline
    func store(_ box: (any AnyObject & Sendable)?, for key: ObjectIdentifier) {
        if let box {
            state.withLock { $0.storage[key] = box }
        } else {
            _ = state.withLock { $0.storage.removeValue(forKey: key) }
        }
    }

    // MARK: Logging and waking

    /// Adds a line to the scenario's log (a `.log` run event).
    public func log(_ line: String) {
        logSink(line)
    }

    /// Tells a waiting step that something it may wait for happened, so it is retried at once.
    public func signalChange() {
        changes.signal()
    }

    // MARK: Activity

    /// Sets what the runner asks, before each attempt of an expectation, whether anything that could
    /// still change its answer is running: `nil` when nothing is, else what is (`1 request in flight`,
    /// `idling resource 'outbox'`). Step modules set it when they prepare a scenario.
    package func setActivityProbe(_ probe: @escaping @Sendable () -> String?) {
        state.withLock { $0.activityProbe = probe }
    }

    /// What is running that could still change an expectation's answer, or `nil` when nothing is
    /// (also when no step module said how to tell).
    package var activity: String? {
        state.withLock { $0.activityProbe }?()
    }

    // MARK: The current step

    /// The description of the step being run, if any.
    public var currentStep: String? { state.withLock { $0.currentStep } }

    /// How long the current step has been running (across its retries), on the context's clock.
    public var stepElapsed: Duration { state.withLock { $0.stepStart?.elapsed } ?? .zero }

    /// Counts the steps begun in this scenario (set-up steps included): 1 during the first.
    package var stepSerial: Int { state.withLock { $0.stepSerial } }

    /// Marks the start of a step: its retries and ``stepElapsed`` count from here.
    package func beginStep(_ description: String) {
        let stopwatch = Stopwatch(clock)
        state.withLock {
            $0.currentStep = description
            $0.stepStart = stopwatch
            $0.stepSerial += 1
        }
    }

    /// Sleeps for `interval` on the clock, or less when a change is signalled after `generation`.
    func pause(
        for interval: Duration,
        orUntilChangeAfter generation: UInt64,
        when condition: (@Sendable () -> Bool)? = nil
    ) async {
        await changes.wait(after: generation, until: condition, timeout: interval, timer: timer)
    }

    /// Said by a step about to answer `.wait` whose answer cannot change while `condition` is false (work it
    /// waits for still running): changes that leave it false do not retry the step, its timeout still
    /// does. `condition` is read on the thread that signals a change, so it reads only state under locks
    /// that no signaller holds, and holds once a change after which it holds is signalled.
    package func retry(when condition: @escaping @Sendable () -> Bool) {
        state.withLock { $0.retryCondition = condition }
    }

    /// The condition the last attempt said its wait depends on, forgotten here (each attempt says its own).
    func takeRetryCondition() -> (@Sendable () -> Bool)? {
        state.withLock { state in
            defer { state.retryCondition = nil }
            return state.retryCondition
        }
    }
}

/// A value of ``ScenarioContext``'s typed storage: only the subscript of its key stores one, always of
/// that key's `Value`, so a read knows the box's type.
@usableFromInline
final class Stored<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
