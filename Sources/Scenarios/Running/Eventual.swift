import Synchronization

/// A value that arrives once, awaited with a time limit on a ``DeadlineTimer``: how the runner bounds a
/// step's action without having to trust it to return.
///
/// The first ``resolve(_:)`` wins; later ones are ignored. A waiter gives up after its limit
/// (``value(within:on:)`` returns `nil`) and cancels its timer entry when the value comes first, so a
/// step that ends in time leaves nothing scheduled. It has one waiter at a time (the runner, which waits
/// again only after a wait ended): a second waiter takes over, and the first gives up at once.
///
/// ```swift
/// let done = Eventual<Int>()
/// Task { done.resolve(await work()) }
/// if let result = await done.value(within: .seconds(10), on: timer) { … } else { /* timed out */ }
/// ```
final class Eventual<Value: Sendable>: Sendable {
    /// A waiter taken out of the state: to be resumed, and its timer entry cancelled.
    private typealias Taken = (
        continuation: UnsafeContinuation<Value?, Never>, deadline: (timer: DeadlineTimer, token: Int)?
    )

    private struct State {
        var value: Value?
        /// The waiter, numbered (so that a timer entry made for an earlier one never ends it), and the
        /// timer entry that gives up on the value for it. One slot, not a list: a raced step has one waiter,
        /// and a list cost each step an allocation.
        var waiter: UnsafeContinuation<Value?, Never>?
        var waiterNumber = 0
        var deadline: (timer: DeadlineTimer, token: Int)?

        /// Takes the waiter out, with its timer entry.
        mutating func takeWaiter() -> Taken? {
            guard let waiter else { return nil }
            defer {
                self.waiter = nil
                deadline = nil
            }
            return (waiter, deadline)
        }
    }

    private let state = Mutex(State())

    /// Sets the value, once, and hands it to the waiter.
    func resolve(_ value: Value) {
        let waiter = state.withLock { state -> Taken? in
            guard state.value == nil else { return nil }
            state.value = value
            return state.takeWaiter()
        }
        guard let (continuation, deadline) = waiter else { return }
        if let deadline { deadline.timer.cancel(deadline.token) }
        continuation.resume(returning: value)
    }

    /// The value if it has arrived, without waiting.
    var current: Value? { state.withLock { $0.value } }

    /// The value, or `nil` when `limit` passes on `timer` before it arrives.
    func value(within limit: Duration, on timer: DeadlineTimer) async -> Value? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Value?, Never>) in
            let (number, replaced) = state.withLock { state -> (Int?, Taken?) in
                if let value = state.value {
                    continuation.resume(returning: value)
                    return (nil, nil)
                }
                let replaced = state.takeWaiter()
                state.waiterNumber += 1
                state.waiter = continuation
                return (state.waiterNumber, replaced)
            }
            if let (earlier, deadline) = replaced {
                if let deadline { deadline.timer.cancel(deadline.token) }
                earlier.resume(returning: nil)
            }
            guard let number else { return }
            let token = timer.schedule(after: limit) { [self] in
                let waiter = state.withLock { state in
                    state.waiterNumber == number ? state.takeWaiter() : nil
                }
                waiter?.continuation.resume(returning: nil)
            }
            let stillWaiting = state.withLock { state -> Bool in
                guard state.waiterNumber == number, state.waiter != nil else { return false }
                state.deadline = (timer, token)
                return true
            }
            if !stillWaiting { timer.cancel(token) }
        }
    }
}
