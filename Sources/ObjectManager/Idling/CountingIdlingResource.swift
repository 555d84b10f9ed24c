import Synchronization

/// An idling resource that app code raises before work it starts on its own and lowers when that work
/// ends (Espresso's `CountingIdlingResource`): idle while the count is zero. Lowering wakes a waiting
/// expectation at once. Safe from any thread.
///
/// ```swift
/// static let outboxWork = CountingIdlingResource("outbox")
///
/// Task {
///     try await Outbox.outboxWork.whileBusy {
///         try await Task.sleep(for: .milliseconds(100))   // the debounce
///         try await outbox.sendPending()
///     }
/// }
/// ```
public final class CountingIdlingResource: IdlingResource {
    public let name: String
    private let count = Mutex(0)
    private let observers = Observers<Void>()

    /// Makes a resource named `name` (`outbox`), idle until raised.
    public init(_ name: String) {
        self.name = name
    }

    /// How many pieces of work are running.
    public var busyCount: Int { count.withLock { $0 } }

    public var isIdle: Bool { busyCount == 0 }

    /// Marks one more piece of work as running.
    public func increment() {
        count.withLock { $0 += 1 }
        observers.notify(())
    }

    /// Marks one piece of work as ended. A lowering without a raise leaves the count at zero (never
    /// negative, so a misplaced call cannot make the resource look idle while work runs).
    public func decrement() {
        count.withLock { $0 = max(0, $0 - 1) }
        observers.notify(())
    }

    /// Runs `work` with the resource raised, lowering it however `work` ends.
    public func whileBusy<T: Sendable>(_ work: () async throws -> T) async rethrows -> T {
        increment()
        defer { decrement() }
        return try await work()
    }

    /// Calls `body` (on any thread) each time the count changes; keep the token.
    public func observe(_ body: @escaping @Sendable () -> Void) -> Observation {
        observers.add { _ in body() }
    }
}
