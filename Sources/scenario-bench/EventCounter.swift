import Synchronization

/// Counts run events, so the dispatch benchmark pays for a real event consumer.
final class EventCounter: Sendable {
    private let count = Mutex(0)

    func add() {
        count.withLock { $0 += 1 }
    }
}
