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
        var observations: [any Sendable] = []
        /// The step serial (``ScenarioContext/stepSerial``) during which each notification name was last posted.
        var posted: [String: Int] = [:]
        /// Unmatched requests the log named (`GET /restaurant/5`), oldest first, whose response the object
        /// manager has not recorded yet: its record of the same 404 is then not logged again.
        var unmatchedLogged: [String] = []
    }

    /// How many logged unmatched requests are remembered for their records (requests the object manager
    /// did not send — the app's own — never get one).
    static let unmatchedRemembered = 100

    /// The object manager the scenario's set-up made (the shared instance, `ObjectManager.shared`).
    public let manager: ObjectManager
    /// What every scenario of the run shares: the test factory, the stub server, the fixtures.
    public let environment: TestEnvironment
    private let state = Mutex(State())

    init(manager: ObjectManager, environment: TestEnvironment, context: ScenarioContext) {
        self.manager = manager
        self.environment = environment
        // Wake waiting steps whenever a request finishes, the queue changes or the journal grows;
        // log each request to the scenario's log (once: an unmatched request's line already said it all).
        let requests = manager.observeRequests { [weak self, weak context] record in
            if record.status != 404 || self?.forgetLoggedUnmatched(record) != true { context?.log(record.description) }
            context?.signalChange()
        }
        let queue = manager.queue.observe { [weak context] in context?.signalChange() }
        let journal = environment.server.journal.onChange { [weak context] in context?.signalChange() }
        let idling = environment.idlingResources.compactMap { resource in
            (resource as? CountingIdlingResource)?.observe { [weak context] in context?.signalChange() }
        }
        // A request no stub route answered, with its nearest routes, in the log (unless `unmatched requests: off`).
        let unmatched =
            environment.logsUnmatchedRequests
            ? [
                environment.server.session.onUnmatched { [weak self, weak context] request in
                    self?.state.withLock { state in
                        if state.unmatchedLogged.count == Self.unmatchedRemembered {
                            state.unmatchedLogged.removeFirst()
                        }
                        state.unmatchedLogged.append(Self.logKey(method: request.method, target: request.target))
                    }
                    context?.log(request.logLine)
                }
            ]
            : []
        state.withLock { $0.observations = [requests, queue, journal] + unmatched + idling }
        // The runner's reading before every attempt of an expectation.
        context.setActivityProbe { [weak self] in self?.activity }
        // Every notification, so `wait for notification` also sees one posted before it began.
        environment.listen(ObjectIdentifier(self)) { [weak self, weak context] name in
            guard let self, let context else { return }
            let serial = context.stepSerial
            let isNew = self.state.withLock { state -> Bool in
                // Bounded: names beyond the first 10,000 distinct ones are not remembered.
                guard state.posted[name.rawValue] != nil || state.posted.count < 10_000 else { return false }
                state.posted[name.rawValue] = serial
                return true
            }
            if isNew { context.signalChange() }
        }
    }

    /// Whether the log already named the unmatched request `record` answers (then forgotten, as answered).
    private func forgetLoggedUnmatched(_ record: RequestRecord) -> Bool {
        let key = Self.logKey(method: record.method.rawValue, target: Self.target(of: record.url))
        return state.withLock { state in
            guard let index = state.unmatchedLogged.firstIndex(of: key) else { return false }
            state.unmatchedLogged.remove(at: index)
            return true
        }
    }

    /// `GET /restaurant/5`: how an unmatched request and the object manager's record of it are paired.
    static func logKey(method: String, target: String) -> String {
        method.uppercased() + " " + target
    }

    /// The request target the object manager sends for `url` (its transports write it so): the path and
    /// query as written in the URL, percent-encoded.
    static func target(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
    }

    /// Whether a notification of that name was posted during step `serial` or later.
    func wasPosted(_ name: Notification.Name, sinceStep serial: Int) -> Bool {
        state.withLock { ($0.posted[name.rawValue] ?? -1) >= serial }
    }

    /// Starts `work` in the background (a request, an app action) so the step can return at once;
    /// `wait for requests` and `expect response` wait for it. Start a step's background work here rather
    /// than in a `Task` of its own: under `scenario-run` it gives the run its turn at every `await`, so
    /// work that loops without suspending for real cannot hold the thread the run shares with it.
    public func launch(_ context: ScenarioContext, _ work: @escaping @Sendable () async -> Void) {
        start(work, in: context, on: AppCode.executor)
    }

    /// As ``launch(_:_:)``, for the package's own work that runs no app code (a request the object
    /// manager sends): run as the run's own work, without a trip through the loop's queue per `await`
    /// (`AppCode`).
    package func launchBuiltIn(_ context: ScenarioContext, _ work: @escaping @Sendable () async -> Void) {
        start(work, in: context, on: nil)
    }

    private func start(
        _ work: @escaping @Sendable () async -> Void,
        in context: ScenarioContext,
        on executor: (any TaskExecutor)?
    ) {
        state.withLock { $0.running += 1 }
        let task = AppCode.task(on: executor) { [weak self, weak context] in
            await work()
            self?.state.withLock { $0.running -= 1 }
            context?.signalChange()
        }
        state.withLock { $0.tasks.append(task) }
    }

    /// Background work started by steps and not finished yet.
    public var runningCount: Int { state.withLock { $0.running } }

    /// What is running that could still change an expectation's answer — background work steps
    /// started, queued or in-flight requests, busy idling resources of the app — or `nil` when nothing
    /// is. The runner reads it before every attempt of an expectation (`Step.settles`).
    public var activity: String? {
        let running = runningCount
        let queued = manager.queue.count
        let resources = environment.idlingResources
        let busyResources = resources.isEmpty ? [] : resources.indices.filter { !resources[$0].isIdle }
        if running == 0, queued == 0, busyResources.isEmpty { return nil }
        // Read before every attempt of an expectation: the common texts are made once per process.
        if busyResources.isEmpty, let text = Self.commonActivity[running, queued] { return text }
        var busy: [String] = []
        if running > 0 { busy.append(Self.stepActions(running)) }
        if queued > 0 { busy.append(Self.requests(queued)) }
        for index in busyResources { busy.append("idling resource '\(resources[index].name)'") }
        return busy.joined(separator: ", ")
    }

    /// Success when nothing could change an expectation's answer any more, else a wait naming what is
    /// busy: what a negative or upper-bound expectation answers once its count holds. Like ``activity``,
    /// except that requests a suspended queue holds (and the step actions waiting on them) cannot change
    /// anything until the queue is resumed, so they do not count.
    public func judgedWhenIdle() -> StepResult {
        let (running, moving) = busyCounts()
        let resources = environment.idlingResources
        let busy = resources.filter { !$0.isIdle }.map { "idling resource '\($0.name)'" }
        if running == 0, moving == 0, busy.isEmpty { return .success }
        // Read before every attempt of a judged expectation while the app works: the common texts are
        // made once per process.
        if busy.isEmpty, let text = Self.commonJudgement[running, moving] { return .wait(text) }
        let parts =
            (running > 0 ? [Self.stepActions(running)] : []) + (moving > 0 ? [Self.requests(moving)] : []) + busy
        return .wait(Self.judgement(parts.joined(separator: ", ")))
    }

    /// ``judgedWhenIdle()`` for a step of `context`: while it waits, the step is retried only once the
    /// step actions and requests it names have ended (or at its pause's end). With idling resources (the
    /// app's code, read under the app's locks) it is retried at every change, as any step.
    package func judgedWhenIdle(retryingIn context: ScenarioContext) -> StepResult {
        let judgement = judgedWhenIdle()
        if case .wait = judgement { retryWhenIdle(context) }
        return judgement
    }

    /// Tells `context` that the waiting step's answer waits for the step actions and requests
    /// ``judgedWhenIdle()`` names to end; without effect when the app has idling resources.
    package func retryWhenIdle(_ context: ScenarioContext) {
        guard environment.idlingResources.isEmpty else { return }
        context.retry { [weak self] in
            guard let self else { return true }
            return self.busyCounts() == (0, 0)
        }
    }

    /// The step actions and the requests that could still change a judgement (``judgedWhenIdle()``).
    private func busyCounts() -> (running: Int, moving: Int) {
        let queue = manager.queue.counts
        let held = queue.isSuspended ? queue.pending : 0
        let running = max(0, runningCount - held)
        let moving = queue.inFlight + (queue.isSuspended ? 0 : queue.pending)
        return (running, moving)
    }

    private static func judgement(_ busy: String) -> String {
        "Waiting for the app to be idle before judging (busy: \(busy))"
    }

    private static func stepActions(_ count: Int) -> String { "\(count) step action\(count == 1 ? "" : "s")" }
    private static func requests(_ count: Int) -> String {
        "\(count) request\(count == 1 ? "" : "s") queued or in flight"
    }

    /// The activity texts of up to 3 step actions and 3 requests, with no idling resource busy.
    private static let commonActivity = ActivityTexts(upTo: 3)
    /// ``judgedWhenIdle()``'s waits for up to 3 step actions and 3 requests, with no idling resource busy.
    private static let commonJudgement = ActivityTexts(upTo: 3, saying: judgement)

    struct ActivityTexts: Sendable {
        private let texts: [[String?]]

        /// The texts of `running` step actions and `queued` requests for each count up to `most`, each put
        /// in words by `saying`.
        init(upTo most: Int, saying: (String) -> String = { $0 }) {
            texts = (0...most).map { running in
                (0...most).map { queued in
                    let parts = (running > 0 ? [stepActions(running)] : []) + (queued > 0 ? [requests(queued)] : [])
                    return parts.isEmpty ? nil : saying(parts.joined(separator: ", "))
                }
            }
        }

        subscript(running: Int, queued: Int) -> String? {
            guard texts.indices.contains(running), texts[running].indices.contains(queued) else { return nil }
            return texts[running][queued]
        }
    }

    /// Cancels background work and removes every observer.
    func close() async {
        environment.stopListening(ObjectIdentifier(self))
        let tasks = state.withLock { state in
            defer { state.tasks = []; state.observations = [] }
            return state.tasks
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}

/// An object bound with `as:`, readable as `${name.attribute}` and passable as `{object: name}`.
package struct BoundObject: Bindable {
    package let object: ManagedObject

    package init(_ object: ManagedObject) { self.object = object }

    package func value(forKeyPath keyPath: String) -> String? {
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
