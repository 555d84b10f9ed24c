import Synchronization

/// How many connections the stub server has open, counted by their `ConnectionGuard`s.
final class OpenConnections: Sendable {
    private let count = Atomic(0)

    /// The connections open now.
    var value: Int { count.load(ordering: .relaxed) }

    func opened() { count.add(1, ordering: .relaxed) }

    func closed() { count.subtract(1, ordering: .relaxed) }
}
