import Synchronization

/// A value that arrives once, awaited with a time limit on a ``DeadlineTimer``: how the runner bounds a
/// step's action without having to trust it to return.
///
/// The first ``resolve(_:)`` wins; later ones are ignored. Waiters give up after their limit
/// (``value(within:on:)`` returns `nil`) and cancel their timer entry when the value comes first, so a
/// step that ends in time leaves nothing scheduled.
///
/// ```swift
/// let done = Eventual<Int>()
/// Task { done.resolve(await work()) }
/// if let result = await done.value(within: .seconds(10), on: timer) { … } else { /* timed out */ }
/// ```
final class Eventual<Value: Sendable>: Sendable {
    private struct Waiter {
        var continuation: UnsafeContinuation<Value?, Never>
        /// The timer entry that gives up on the value.
        var deadline: (timer: DeadlineTimer, token: Int)?
    }

    private struct State {
        var value: Value?
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Sets the value, once, and hands it to every waiter.
    func resolve(_ value: Value) {
        let waiters = state.withLock { state -> [Waiter] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            if let deadline = waiter.deadline { deadline.timer.cancel(deadline.token) }
            waiter.continuation.resume(returning: value)
        }
    }

    /// The value if it has arrived, without waiting.
    var current: Value? { state.withLock { $0.value } }

    /// The value, or `nil` when `limit` passes on `timer` before it arrives.
    func value(within limit: Duration, on timer: DeadlineTimer) async -> Value? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Value?, Never>) in
            let id = state.withLock { state -> Int? in
                if let value = state.value {
                    continuation.resume(returning: value)
                    return nil
                }
                state.nextID += 1
                state.waiters[state.nextID] = Waiter(continuation: continuation)
                return state.nextID
            }
            guard let id else { return }
            let token = timer.schedule(after: limit) { [self] in
                let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.continuation.resume(returning: nil)
            }
            let stillWaiting = state.withLock { state -> Bool in
                guard state.waiters[id] != nil else { return false }
                state.waiters[id]?.deadline = (timer, token)
                return true
            }
            if !stillWaiting { timer.cancel(token) }
        }
    }
}
