import Foundation
public import ObjectManager
public import Scenarios
import Synchronization

/// The state one scenario's steps share beyond the object manager: the work steps started in the
/// background (requests, app actions), per-step waiting state, and the observations that wake the
/// runner when something a waiting step may be waiting for happens.
public final class ScenarioWorld: Sendable {
    package enum Key: ContextKey { package typealias Value = ScenarioWorld }

    struct State {
        var running = 0
        var tasks: [Task<Void, Never>] = []
        var stepState: [UUID: any Sendable] = [:]
        var observations: [any Sendable] = []
        var notificationTokens: [NotificationObservation] = []
    }

    public let manager: ObjectManager
    public let environment: TestEnvironment
    private let state = Mutex(State())

    init(manager: ObjectManager, environment: TestEnvironment, context: ScenarioContext) {
        self.manager = manager
        self.environment = environment
        // Wake waiting steps whenever a request finishes, the queue changes or the journal grows;
        // log each request to the scenario's log.
        let requests = manager.observeRequests { [weak context] record in
            context?.log(record.description)
            context?.signalChange()
        }
        let queue = manager.queue.observe { [weak context] in context?.signalChange() }
        let journal = environment.server.journal.onChange { [weak context] in context?.signalChange() }
        state.withLock { $0.observations = [requests, queue, journal] }
    }

    /// Starts `work` in the background (a request, an app action) so the step can return at once;
    /// `wait for requests` and `expect response` wait for it.
    public func launch(_ context: ScenarioContext, _ work: @escaping @Sendable () async -> Void) {
        state.withLock { $0.running += 1 }
        let task = Task { [weak self, weak context] in
            await work()
            self?.state.withLock { $0.running -= 1 }
            context?.signalChange()
        }
        state.withLock { $0.tasks.append(task) }
    }

    /// Background work started by steps and not finished yet.
    public var runningCount: Int { state.withLock { $0.running } }

    /// Nothing the scenario started is still running or queued, so state that only requests and
    /// steps change cannot change any more.
    public var isSettled: Bool { runningCount == 0 && manager.queue.count == 0 }

    /// What an unmet expectation answers: `.wait(reason)` while something is still running; once
    /// everything had settled *before the expectation looked* (`settled`, read first), nothing can make
    /// it come true, so `.failure(reason)` at once instead of at the timeout.
    public static func notYet(_ reason: String, settled: Bool) -> StepResult {
        settled ? .failure(reason) : .wait(reason)
    }

    /// State a step keeps between its attempts (a notification it is waiting for).
    func stepState<T: Sendable>(_ id: UUID, create: () -> T) -> T {
        state.withLock { state in
            if let existing = state.stepState[id] as? T { return existing }
            let value = create()
            state.stepState[id] = value
            return value
        }
    }

    func keepNotificationToken(_ token: NotificationObservation) {
        state.withLock { $0.notificationTokens.append(token) }
    }

    /// Cancels background work and removes every observer.
    func close() async {
        let (tasks, tokens) = state.withLock { state in
            defer { state.tasks = []; state.notificationTokens = []; state.observations = [] }
            return (state.tasks, state.notificationTokens)
        }
        for token in tokens { token.remove() }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}

/// An object bound with `as:`, readable as `${name.attribute}` and passable as `{object: name}`.
public struct BoundObject: Bindable {
    public let object: ManagedObject

    public init(_ object: ManagedObject) { self.object = object }

    public func value(forKeyPath keyPath: String) -> String? {
        keyPath.isEmpty ? object.description : object.value(forKeyPath: keyPath)?.stringValue
    }
}

/// A NotificationCenter observer token; only ever handed back to `removeObserver`, which is thread-safe.
final class NotificationObservation: @unchecked Sendable {
    private let token: AnyObject
    private let center: NotificationCenter

    init(token: AnyObject, center: NotificationCenter) {
        self.token = token
        self.center = center
    }

    func remove() {
        center.removeObserver(token)
    }
}
