import Foundation
import Testing

@testable import StubServer

/// The journal's limits: the start of each body, the newest entries within a count and a size.
struct RequestJournalTests {
    static func entry(_ path: String, body: Int = 0) -> JournalEntry {
        JournalEntry(method: "POST", path: path, body: Data(repeating: UInt8(ascii: "b"), count: body))
    }

    @Test func aLongBodyIsKeptUpToTheCapWithItsLength() {
        let journal = RequestJournal(limits: .init(bodyBytes: 10, entries: 100, bytes: 1 << 20))
        journal.record(Self.entry("/long", body: 25))
        journal.record(Self.entry("/short", body: 10))
        let entries = journal.entries
        #expect(entries.map(\.body.count) == [10, 10])
        #expect(entries.map(\.bodyLength) == [25, 10])
        #expect(entries.map(\.isBodyTruncated) == [true, false])
    }

    @Test func onlyTheNewestEntriesAreKept() {
        let journal = RequestJournal(limits: .init(bodyBytes: 10, entries: 3, bytes: 1 << 20))
        for index in 0..<5000 {
            journal.record(Self.entry("/\(index)"))
        }
        #expect(journal.entries.map(\.path) == ["/4997", "/4998", "/4999"])
        #expect(
            journal.methodsAndPaths.map(\.path) == ["/4997", "/4998", "/4999"],
            "read in place, the same kept entries"
        )
        #expect(journal.methodsAndPaths.map(\.method) == journal.entries.map(\.method))
        #expect(journal.receivedCount == 5000)
        #expect(journal.entries(method: "post", path: "/4998").count == 1)
        journal.clear()
        #expect(journal.entries.isEmpty)
        #expect(journal.methodsAndPaths.isEmpty)
        #expect(journal.receivedCount == 0)
    }

    @Test func aCursorReadsOnFromWhereItWasAndStartsOverAfterAClear() {
        let journal = RequestJournal(limits: .init(bodyBytes: 10, entries: 3, bytes: 1 << 20))
        journal.record(Self.entry("/a"))
        let cursor = journal.end
        #expect(journal.entries(since: cursor).entries.isEmpty)
        journal.record(Self.entry("/b"))
        journal.record(Self.entry("/c"))
        let (new, end) = journal.entries(since: cursor)
        #expect(new.map(\.path) == ["/b", "/c"])
        #expect(journal.entries(since: end).entries.isEmpty)
        // More new ones than are kept: the kept ones.
        for index in 0..<5 { journal.record(Self.entry("/\(index)")) }
        #expect(journal.entries(since: end).entries.map(\.path) == ["/2", "/3", "/4"])
        // A cursor of before a clear reads every request since the clear, however many it had seen.
        journal.clear()
        journal.record(Self.entry("/after"))
        #expect(journal.entries(since: end).entries.map(\.path) == ["/after"])
        #expect(journal.entries(since: RequestJournal.Cursor()).entries.map(\.path) == ["/after"])
    }

    @Test func theOldestEntriesGoWhenTheSizeIsOver() {
        let journal = RequestJournal(limits: .init(bodyBytes: 1000, entries: 100, bytes: 2500))
        for index in 0..<10 {
            journal.record(Self.entry("/\(index)", body: 1000))
        }
        // Each entry costs its 1,000 body bytes and some 130 more: two fit in 2,500.
        #expect(journal.entries.map(\.path) == ["/8", "/9"])
    }

    @Test func theNewestEntryIsKeptEvenOverTheSize() {
        let journal = RequestJournal(limits: .init(bodyBytes: 5000, entries: 100, bytes: 100))
        journal.record(Self.entry("/a", body: 500))
        journal.record(Self.entry("/b", body: 500))
        #expect(journal.entries.map(\.path) == ["/b"])
    }

    @Test func theStandardLimits() {
        #expect(
            RequestJournal.Limits.standard
                == .init(bodyBytes: 65_536, entries: 10_000, bytes: 33_554_432, answers: false)
        )
        #expect(RequestJournal().limits == .standard)
    }

    /// An answer is added to the entry at its place: the status and the body up to the cap, whose whole
    /// length is said; a place the journal forgot, or one from before a clear, adds nothing to any entry.
    @Test func anAnswerIsKeptWithItsStatusAndTheStartOfItsBody() {
        let journal = RequestJournal(limits: .init(bodyBytes: 10, entries: 3, bytes: 1 << 20, answers: true))
        let first = journal.record(Self.entry("/first"))
        let second = journal.record(Self.entry("/second"))
        journal.answered(second, status: 422, body: Data("0123456789abcdef".utf8))
        journal.answered(first, status: 201, body: Data("{}".utf8))
        let entries = journal.entries
        #expect(entries.map(\.status) == [201, 422])
        #expect(entries.map { String(decoding: $0.responseBody, as: UTF8.self) } == ["{}", "0123456789"])
        #expect(entries.map(\.responseBodyLength) == [2, 16])
        // Forgotten (three newer entries) or cleared: its answer goes nowhere.
        for index in 0..<3 { journal.record(Self.entry("/\(index)")) }
        journal.answered(first, status: 500, body: Data("late".utf8))
        #expect(journal.entries.map(\.status) == [nil, nil, nil])
        let third = journal.end
        journal.clear()
        journal.record(Self.entry("/after"))
        journal.answered(third, status: 500, body: Data("late".utf8))
        #expect(journal.entries.map(\.status) == [nil])
    }

    /// Without `answers` (the standard limits: a run with no report showing the request log), an answer
    /// keeps nothing: no status, no body, no length.
    @Test func noAnswerIsKeptUnlessTheLimitsSaySo() {
        let journal = RequestJournal()
        let place = journal.record(Self.entry("/review", body: 4))
        journal.answered(place, status: 201, body: Data("{\"reviewID\": 1}".utf8))
        let entry = journal.entries.first
        #expect(entry?.path == "/review")
        #expect(entry?.status == nil)
        #expect(entry?.responseBody.isEmpty == true)
        #expect(entry?.responseBodyLength == 0)
    }
}
