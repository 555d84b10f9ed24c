extension RequestJournal {
    /// How much the journal keeps: the start of each body, and the newest entries within a count and a size.
    ///
    /// A body longer than `bodyBytes` is kept up to that length; its entry still says how long it was.
    /// Once more than `entries` entries, or more than `bytes` bytes of them, are kept, the oldest are
    /// forgotten. A `serve` left running for days holds at most `bytes` of requests. What the server answered
    /// (its status and the start of its body) is kept only with `answers`: a run sets it when a report shows
    /// the request log (`RunSettings.requestLog`), and nothing else reads it.
    package struct Limits: Sendable, Equatable {
        /// The most body bytes kept per entry.
        package var bodyBytes: Int
        /// The most entries kept.
        package var entries: Int
        /// The most bytes kept over all entries (bodies, headers, path and query).
        package var bytes: Int
        /// Whether each entry keeps its answer's status and body (``RequestJournal/answered(_:status:body:)``).
        package var answers: Bool

        package init(bodyBytes: Int = 64 << 10, entries: Int = 10_000, bytes: Int = 32 << 20, answers: Bool = false) {
            self.bodyBytes = bodyBytes
            self.entries = entries
            self.bytes = bytes
            self.answers = answers
        }

        /// 64 KiB of each body, the newest 10,000 entries within 32 MiB, no answers.
        package static let standard = Limits()
    }
}
