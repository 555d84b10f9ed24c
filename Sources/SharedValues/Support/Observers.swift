package import Synchronization

/// Callbacks registered by observers, called with each change; the one way the queue, the object
/// manager and the stub server's journal tell waiting steps that something happened.
///
/// ```swift
/// let observers = Observers<RequestRecord>()
/// let observation = observers.add { record in print(record) }
/// observers.notify(record)      // calls every live callback
/// observation.cancel()          // or let it go
/// ```
///
/// Its methods are inlinable: each module that keeps observers has them specialized for its values, so that
/// adding, removing and notifying — several times a scenario — look no generic type up at run time.
package final class Observers<Value: Sendable>: Sendable {
    package struct State {
        /// The live callbacks, in the order they were added: notifying (far more frequent than adding or
        /// removing one) copies the list, no dictionary.
        package var callbacks: [(id: Int, body: @Sendable (Value) -> Void)] = []
        package var next = 0

        @inlinable package init() {}
    }

    package let state: Mutex<State>

    @inlinable package init() {
        state = Mutex(State())
    }

    /// Registers `body` until the returned observation is cancelled or released.
    @inlinable
    package func add(_ body: @escaping @Sendable (Value) -> Void) -> Observation {
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.callbacks.append((state.next, body))
            return state.next
        }
        return Observation { [weak self] in
            self?.state.withLock { state in
                if let index = state.callbacks.firstIndex(where: { $0.id == id }) { state.callbacks.remove(at: index) }
            }
        }
    }

    /// Calls every registered callback with `value`, in the order they were added, outside the lock, on the
    /// calling thread.
    @inlinable
    package func notify(_ value: Value) {
        let callbacks = state.withLock { $0.callbacks }
        for callback in callbacks { callback.body(value) }
    }
}

extension Observers where Value == Void {
    @inlinable
    package func add(_ body: @escaping @Sendable () -> Void) -> Observation {
        add { (_: Void) in body() }
    }

    @inlinable
    package func notify() {
        notify(())
    }
}

/// Keeps an observer registered; `cancel()` or releasing it removes the observer.
public final class Observation: Sendable {
    private let removal: @Sendable () -> Void

    @usableFromInline
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
