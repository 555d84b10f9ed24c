package import Foundation
package import SharedValues
import Synchronization

/// The requests the stub server received, in arrival order, safe to read from any task.
///
/// ```swift
/// let observation = server.journal.onChange { wakeUpTheWaitingStep() }
/// let posts = server.journal.entries(method: "POST", path: "/review")
/// ```
///
/// It is bounded (`Limits`): each body is kept up to 64 KiB, and only the newest 10,000 entries within
/// 32 MiB are kept (the newest entry always is). Answers are kept only when the limits say so.
package final class RequestJournal: Sendable {
    /// The kept entries (from `start` on), their size, and how many were recorded since the last clear.
    private struct State {
        /// A forgotten entry's slot is emptied at once, so its memory goes; the slots themselves are removed
        /// in batches, not one by one.
        var slots: [JournalEntry?] = []
        var start = 0
        var bytes = 0
        var received = 0
        /// How many times the journal was cleared: a cursor taken before a clear is worth nothing after it.
        var clears = 0

        var count: Int { slots.count - start }

        var entries: [JournalEntry] {
            slots[start...].compactMap { $0 }
        }

        mutating func forgetOldest() {
            bytes -= slots[start]?.journalCost ?? 0
            slots[start] = nil
            start += 1
            if start >= 1024, start * 2 >= slots.count {
                slots.removeFirst(start)
                start = 0
            }
        }
    }

    /// What the journal keeps.
    package let limits: Limits
    private let state = Mutex(State())
    private let observers = Observers<Void>()

    package convenience init() {
        self.init(limits: .standard)
    }

    package init(limits: Limits) {
        self.limits = limits
    }

    /// Every kept request, oldest first.
    package var entries: [JournalEntry] {
        state.withLock { $0.entries }
    }

    /// The method and raw path of every kept request, oldest first, read where they are (no copy of the
    /// entries made first). Not generic: a generic method here is not specialized for its callers in other
    /// modules, and looked its result's types up at every call.
    package var methodsAndPaths: [(method: String, path: String)] {
        state.withLock { state in
            var lines: [(method: String, path: String)] = []
            lines.reserveCapacity(state.count)
            for case let entry? in state.slots[state.start...] { lines.append((entry.method, entry.path)) }
            return lines
        }
    }

    /// How many requests were recorded since the last `clear()`, including those no longer kept.
    package var receivedCount: Int {
        state.withLock { $0.received }
    }

    /// Every kept request, and how many recorded since the last `clear()` are no longer kept.
    package var entriesAndDropped: (entries: [JournalEntry], dropped: Int) {
        state.withLock { ($0.entries, $0.received - $0.count) }
    }

    /// The requests with that method (case-insensitive) and exact raw path; `nil` matches any.
    package func entries(method: String?, path: String?) -> [JournalEntry] {
        let method = method?.uppercased()
        return entries.filter { entry in
            (method == nil || entry.method == method) && (path == nil || entry.path == path)
        }
    }

    /// Forgets every recorded request.
    package func clear() {
        state.withLock { state in
            let clears = state.clears + 1
            state = State()
            state.clears = clears
        }
        observers.notify()
    }

    /// A place in the journal: what ``entries(since:)`` reads on from.
    package struct Cursor: Sendable, Equatable {
        var clears = 0
        var received = 0

        /// The journal's start, before any request.
        package init() {}
    }

    /// Where the journal ends now.
    package var end: Cursor {
        state.withLock { state in
            var cursor = Cursor()
            cursor.clears = state.clears
            cursor.received = state.received
            return cursor
        }
    }

    /// The kept requests recorded after `cursor` (every kept one when the journal was cleared since), and
    /// the cursor after them.
    package func entries(since cursor: Cursor) -> (entries: [JournalEntry], end: Cursor) {
        state.withLock { state in
            let new = cursor.clears == state.clears ? state.received - cursor.received : state.received
            var end = Cursor()
            end.clears = state.clears
            end.received = state.received
            guard new > 0 else { return ([], end) }
            let first = max(state.start, state.slots.count - new)
            return (state.slots[first...].compactMap { $0 }, end)
        }
    }

    /// Records a request (its body cut to `limits.bodyBytes`), forgets the oldest beyond the limits, and
    /// notifies the observers. Returns where it is, for ``answered(_:status:body:)``.
    @discardableResult
    package func record(_ entry: JournalEntry) -> Cursor {
        var entry = entry
        if entry.body.count > limits.bodyBytes {
            // A copy, not a slice: a slice would keep the whole body alive.
            entry.body = entry.body.withUnsafeBytes { Data($0.prefix(limits.bodyBytes)) }
        }
        let cost = entry.journalCost
        let place = state.withLock { state in
            state.slots.append(entry)
            state.bytes += cost
            state.received += 1
            while state.count > 1, state.count > limits.entries || state.bytes > limits.bytes {
                state.forgetOldest()
            }
            var place = Cursor()
            place.clears = state.clears
            place.received = state.received
            return place
        }
        observers.notify()
        return place
    }

    /// Adds the answer to the entry ``record(_:)`` put at `place`: its status and the start of its body (cut
    /// to `limits.bodyBytes`). Nothing when the limits keep no answers (`limits.answers`) or the entry is no
    /// longer kept. Observers are not notified: a step that waits for a request waits for its arrival, not
    /// its answer.
    package func answered(_ place: Cursor, status: Int, body: Data) {
        guard limits.answers else { return }
        let kept = body.count > limits.bodyBytes ? body.withUnsafeBytes { Data($0.prefix(limits.bodyBytes)) } : body
        state.withLock { state in
            guard place.clears == state.clears else { return }
            let index = state.slots.count - 1 - (state.received - place.received)
            guard index >= state.start, index < state.slots.count, var entry = state.slots[index] else { return }
            let before = entry.journalCost
            entry.status = status
            entry.responseBody = kept
            entry.responseBodyLength = body.count
            state.slots[index] = entry
            state.bytes += entry.journalCost - before
            while state.count > 1, state.bytes > limits.bytes { state.forgetOldest() }
        }
    }

    /// Calls `body` after every change (a request recorded, or the journal cleared) until the returned
    /// observation is cancelled or released. `body` runs on the recording thread; keep it short.
    package func onChange(_ body: @escaping @Sendable () -> Void) -> Observation {
        observers.add(body)
    }

    /// A stream that yields after every change; only the latest unconsumed change is buffered.
    package func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation = onChange { continuation.yield() }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}
