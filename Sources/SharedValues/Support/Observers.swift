import Synchronization

/// Callbacks registered by observers, called with each change; the one way the queue, the object
/// manager and the stub server's journal tell waiting steps that something happened.
///
/// ```swift
/// let observers = Observers<RequestRecord>()
/// let observation = observers.add { record in print(record) }
/// observers.notify(record)      // calls every live callback
/// observation.cancel()          // or let it go
/// ```
package final class Observers<Value: Sendable>: Sendable {
    private struct State {
        var callbacks: [Int: @Sendable (Value) -> Void] = [:]
        var next = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Registers `body` until the returned observation is cancelled or released.
    package func add(_ body: @escaping @Sendable (Value) -> Void) -> Observation {
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.callbacks[state.next] = body
            return state.next
        }
        return Observation { [weak self] in
            _ = self?.state.withLock { $0.callbacks.removeValue(forKey: id) }
        }
    }

    /// Calls every registered callback with `value`, outside the lock, on the calling thread.
    package func notify(_ value: Value) {
        let callbacks = state.withLock { Array($0.callbacks.values) }
        for callback in callbacks { callback(value) }
    }
}

extension Observers where Value == Void {
    package func add(_ body: @escaping @Sendable () -> Void) -> Observation {
        add { (_: Void) in body() }
    }

    package func notify() {
        notify(())
    }
}

/// Keeps an observer registered; `cancel()` or releasing it removes the observer.
public final class Observation: Sendable {
    private let removal: @Sendable () -> Void

    init(_ removal: @escaping @Sendable () -> Void) {
        self.removal = removal
    }

    /// Stops the callback; calling it again does nothing.
    public func cancel() {
        removal()
    }

    deinit {
        removal()
    }
}
