import Synchronization
import Testing

@testable import SharedValues

/// Every live callback is called with each value, in the order they were added; one cancelled or released
/// is never called again, and one added later is called from the next value on.
struct ObserversTests {
    @Test func liveCallbacksAreCalledInTheOrderAdded() {
        let observers = Observers<Int>()
        let calls = Mutex<[String]>([])
        let first = observers.add { value in calls.withLock { $0.append("first \(value)") } }
        var second: Observation? = observers.add { value in calls.withLock { $0.append("second \(value)") } }
        let third = observers.add { value in calls.withLock { $0.append("third \(value)") } }
        observers.notify(1)
        #expect(calls.withLock { $0 } == ["first 1", "second 1", "third 1"])

        first.cancel()
        second = nil
        observers.notify(2)
        #expect(calls.withLock { $0 } == ["first 1", "second 1", "third 1", "third 2"])
        #expect(second == nil)

        let fourth = observers.add { value in calls.withLock { $0.append("fourth \(value)") } }
        third.cancel()
        third.cancel()
        observers.notify(3)
        #expect(calls.withLock { $0.suffix(1) } == ["fourth 3"])
        withExtendedLifetime(fourth) {}
    }
}
