import Synchronization

/// The object manager's operation queue: FIFO, a configurable number of concurrent requests,
/// suspend and resume, cancel all, counts, and an awaitable "drained".
///
/// ```swift
/// queue.isSuspended = true
/// async let response = queue.perform("GET /restaurants") { try await client.send(request) }
/// queue.pendingCount      // 1 — nothing started
/// queue.isSuspended = false
/// await queue.drained()
/// ```
public final class RequestQueue: Sendable {
    typealias ID = RequestQueueState.ID

    private struct Entry {
        var name: String
        var start: @Sendable () -> Task<Void, Never>
        var cancelQueued: @Sendable () -> Void
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private struct Storage {
        var machine: RequestQueueState
        var nextID = 0
        var entries: [ID: Entry] = [:]
        var drainWaiters: [UnsafeContinuation<Void, Never>] = []
    }

    private let storage: Mutex<Storage>
    private let observers = Observers<Void>()

    /// Makes a queue that runs up to `maxConcurrentRequests` requests at once (at least 1).
    public init(maxConcurrentRequests: Int = 5) {
        storage = Mutex(Storage(machine: RequestQueueState(maxConcurrent: maxConcurrentRequests)))
    }

    /// While suspended, the queue starts nothing; on resume, queued requests start in order.
    public var isSuspended: Bool {
        get { storage.withLock { $0.machine.isSuspended } }
        set { apply { $0.setSuspended(newValue) } }
    }

    /// How many requests run at once (at least 1); raising it starts waiting requests.
    public var maxConcurrentRequests: Int {
        get { storage.withLock { $0.machine.maxConcurrent } }
        set { apply { $0.setMaxConcurrent(newValue) } }
    }

    /// Requests waiting to start.
    public var pendingCount: Int { storage.withLock { $0.machine.pending.count } }
    /// Requests started and not yet finished.
    public var inFlightCount: Int { storage.withLock { $0.machine.running.count } }
    /// Queued plus in flight.
    public var count: Int { storage.withLock { $0.machine.pending.count + $0.machine.running.count } }
    /// Whether the queue is suspended, how many requests it holds and how many are in flight, read at
    /// once (an expectation reads them before each attempt).
    package var counts: (isSuspended: Bool, pending: Int, inFlight: Int) {
        storage.withLock { ($0.machine.isSuspended, $0.machine.pending.count, $0.machine.running.count) }
    }
    /// Names of queued requests, in order (`POST /review`).
    public var pendingNames: [String] {
        storage.withLock { storage in storage.machine.pending.compactMap { storage.entries[$0]?.name } }
    }

    /// Runs `work` when the queue lets it start, and returns its result. A request cancelled while
    /// queued or running throws `ObjectManagerError.cancelled`-style errors from `cancellationError`.
    public func perform<T: Sendable>(
        _ name: String,
        cancellationError: @escaping @Sendable () -> any Error = { CancellationError() },
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let id = storage.withLock { storage -> ID in
            defer { storage.nextID += 1 }
            return storage.nextID
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<T, any Error>) in
                let resume = Once(continuation)
                let entry = Entry(
                    name: name,
                    start: { [weak self] in
                        Task {
                            do {
                                let value = try await work()
                                if self?.wasCancelled(id) == true {
                                    resume.resume(throwing: cancellationError())
                                } else {
                                    resume.resume(returning: value)
                                }
                            } catch {
                                resume.resume(throwing: self?.wasCancelled(id) == true ? cancellationError() : error)
                            }
                            self?.finish(id)
                        }
                    },
                    cancelQueued: { resume.resume(throwing: cancellationError()) }
                )
                let alreadyCancelled = Task.isCancelled
                storage.withLock { $0.entries[id] = entry }
                apply { $0.enqueue(id) }
                if alreadyCancelled { cancel(id) }
            }
        } onCancel: {
            self.cancel(id)
        }
    }

    /// Cancels every queued and running request; each ends with a cancellation error.
    public func cancelAll() {
        apply { $0.cancelAll() }
    }

    /// Returns when nothing is queued or in flight. A suspended queue with queued requests is not drained.
    public func drained() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let idle = storage.withLock { storage -> Bool in
                if storage.machine.isIdle { return true }
                storage.drainWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Calls `body` after every change of the queue's counts or state (from any thread).
    /// Keep the returned token; the observer is removed when it is released.
    public func observe(_ body: @escaping @Sendable () -> Void) -> Observation {
        observers.add(body)
    }

    // MARK: Performing the state machine's actions

    private func cancel(_ id: ID) {
        apply { $0.cancel(id) }
    }

    private func finish(_ id: ID) {
        apply { machine in machine.finished(id) }
        storage.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    private func wasCancelled(_ id: ID) -> Bool {
        storage.withLock { $0.entries[id]?.cancelled ?? false }
    }

    private func apply(_ event: (inout RequestQueueState) -> [RequestQueueState.Action]) {
        var toStart: [(ID, @Sendable () -> Task<Void, Never>)] = []
        var toCancel: [@Sendable () -> Void] = []
        var waiters: [UnsafeContinuation<Void, Never>] = []
        storage.withLock { storage in
            for action in event(&storage.machine) {
                switch action {
                case .start(let id):
                    if let start = storage.entries[id]?.start { toStart.append((id, start)) }
                case .cancelQueued(let id):
                    if let entry = storage.entries.removeValue(forKey: id) { toCancel.append(entry.cancelQueued) }
                case .cancelRunning(let id):
                    storage.entries[id]?.cancelled = true
                    if let task = storage.entries[id]?.task { toCancel.append { task.cancel() } }
                case .drained:
                    waiters = storage.drainWaiters
                    storage.drainWaiters.removeAll()
                }
            }
        }
        for (id, start) in toStart {
            let task = start()
            let cancelledMeanwhile = storage.withLock { storage -> Bool in
                storage.entries[id]?.task = task
                return storage.entries[id]?.cancelled ?? false
            }
            if cancelledMeanwhile { task.cancel() }
        }
        toCancel.forEach { $0() }
        waiters.forEach { $0.resume() }
        observers.notify()
    }
}

/// Resumes a continuation at most once, whoever gets there first.
final class Once<T: Sendable>: Sendable {
    private let continuation: Mutex<UnsafeContinuation<T, any Error>?>

    init(_ continuation: UnsafeContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(returning value: T) {
        take()?.resume(returning: value)
    }

    func resume(throwing error: any Error) {
        take()?.resume(throwing: error)
    }

    private func take() -> UnsafeContinuation<T, any Error>? {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
    }
}
