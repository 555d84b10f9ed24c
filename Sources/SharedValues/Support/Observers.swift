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
///
/// The list itself is not generic (``ObserverList``): adding and removing — several times a scenario, from
/// modules where the compiler may not specialize a generic class's methods — look no generic type up at run
/// time. Each callback is kept as a closure over a pointer to the value, valid for the call.
package final class Observers<Value: Sendable>: Sendable {
    @usableFromInline let list = ObserverList()

    @inlinable package init() {}

    /// Registers `body` until the returned observation is cancelled or released.
    @inlinable
    package func add(_ body: @escaping @Sendable (Value) -> Void) -> Observation {
        list.add { pointer in body(pointer.assumingMemoryBound(to: Value.self).pointee) }
    }

    /// Calls every registered callback with `value`, in the order they were added, outside the lock, on the
    /// calling thread.
    @inlinable
    package func notify(_ value: Value) {
        withUnsafePointer(to: value) { list.notify(UnsafeRawPointer($0)) }
    }
}

/// The callbacks of an ``Observers``, each taking a pointer to the value it is called with.
package final class ObserverList: Sendable {
    @usableFromInline typealias Callback = @Sendable (UnsafeRawPointer) -> Void

    private struct State {
        /// The live callbacks, in the order they were added: notifying (far more frequent than adding or
        /// removing one) copies the list, no dictionary.
        var callbacks: [(id: Int, body: Callback)] = []
        var next = 0
    }

    private let state = Mutex(State())

    @usableFromInline init() {}

    @usableFromInline func add(_ body: @escaping Callback) -> Observation {
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.callbacks.append((state.next, body))
            return state.next
        }
        return Observation { [weak self] in self?.remove(id) }
    }

    private func remove(_ id: Int) {
        state.withLock { state in
            if let index = state.callbacks.firstIndex(where: { $0.id == id }) { state.callbacks.remove(at: index) }
        }
    }

    @usableFromInline func notify(_ value: UnsafeRawPointer) {
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
