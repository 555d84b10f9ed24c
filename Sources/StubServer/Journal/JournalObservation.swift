/// Keeps a `RequestJournal.onChange` callback registered until cancelled or released.
public final class JournalObservation: Sendable {
    private let cancellation: @Sendable () -> Void

    init(cancellation: @escaping @Sendable () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops the callback; calling it again does nothing.
    public func cancel() {
        cancellation()
    }

    deinit {
        cancellation()
    }
}
