/// The request queue as a plain state machine: events in, actions out. `RequestQueue` performs
/// the actions; this struct is tested directly.
struct RequestQueueState: Sendable, Equatable {
    typealias ID = Int

    enum Action: Sendable, Equatable {
        /// Start this queued request now.
        case start(ID)
        /// End this queued request with a cancellation error; it never started.
        case cancelQueued(ID)
        /// Cancel this running request; it ends (with a cancellation error) when its work returns.
        case cancelRunning(ID)
        /// Nothing is queued or running any more.
        case drained
    }

    private(set) var pending: [ID] = []
    private(set) var running: [ID] = []
    private(set) var isSuspended = false
    var maxConcurrent: Int

    init(maxConcurrent: Int = 5) {
        self.maxConcurrent = max(1, maxConcurrent)
    }

    var isIdle: Bool { pending.isEmpty && running.isEmpty }

    mutating func enqueue(_ id: ID) -> [Action] {
        pending.append(id)
        return startAsMany()
    }

    mutating func finished(_ id: ID) -> [Action] {
        running.removeAll { $0 == id }
        var actions = startAsMany()
        if isIdle { actions.append(.drained) }
        return actions
    }

    mutating func setSuspended(_ suspended: Bool) -> [Action] {
        isSuspended = suspended
        return suspended ? [] : startAsMany()
    }

    /// Cancels one request, queued or running.
    mutating func cancel(_ id: ID) -> [Action] {
        if let index = pending.firstIndex(of: id) {
            pending.remove(at: index)
            return isIdle ? [.cancelQueued(id), .drained] : [.cancelQueued(id)]
        }
        return running.contains(id) ? [.cancelRunning(id)] : []
    }

    mutating func cancelAll() -> [Action] {
        let queued = pending
        pending.removeAll()
        var actions = queued.map(Action.cancelQueued) + running.map(Action.cancelRunning)
        if isIdle, !queued.isEmpty { actions.append(.drained) }
        return actions
    }

    mutating func setMaxConcurrent(_ value: Int) -> [Action] {
        maxConcurrent = max(1, value)
        return startAsMany()
    }

    private mutating func startAsMany() -> [Action] {
        guard !isSuspended else { return [] }
        var actions: [Action] = []
        while running.count < maxConcurrent, !pending.isEmpty {
            let id = pending.removeFirst()
            running.append(id)
            actions.append(.start(id))
        }
        return actions
    }
}
