public import ObjectManager
import Synchronization

/// The requests the stub server received, in arrival order, safe to read from any task.
///
/// ```swift
/// let observation = server.journal.onChange { wakeUpTheWaitingStep() }
/// let posts = server.journal.entries(method: "POST", path: "/review")
/// ```
public final class RequestJournal: Sendable {
    private let state = Mutex<[JournalEntry]>([])
    private let observers = Observers<Void>()

    public init() {}

    /// Every recorded request, oldest first.
    public var entries: [JournalEntry] {
        state.withLock { $0 }
    }

    /// The requests with that method (case-insensitive) and exact raw path; `nil` matches any.
    public func entries(method: String?, path: String?) -> [JournalEntry] {
        let method = method?.uppercased()
        return entries.filter { entry in
            (method == nil || entry.method == method) && (path == nil || entry.path == path)
        }
    }

    /// Forgets every recorded request.
    public func clear() {
        state.withLock { $0.removeAll() }
        observers.notify()
    }

    /// Records a request and notifies the observers.
    package func record(_ entry: JournalEntry) {
        state.withLock { $0.append(entry) }
        observers.notify()
    }

    /// Calls `body` after every change (a request recorded, or the journal cleared) until the returned
    /// observation is cancelled or released. `body` runs on the recording thread; keep it short.
    public func onChange(_ body: @escaping @Sendable () -> Void) -> Observation {
        observers.add(body)
    }

    /// A stream that yields after every change; only the latest unconsumed change is buffered.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation = onChange { continuation.yield() }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}
