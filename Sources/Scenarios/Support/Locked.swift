import Foundation

/// A value guarded by a lock, so that a `final class` holding it can be `Sendable`.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 while the package supports macOS 14.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
