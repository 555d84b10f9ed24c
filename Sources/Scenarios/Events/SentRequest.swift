/// A request the stub server received during a scenario, by method and path (no query, no body): what a
/// run remembers so that `check --openapi` can say which of the API's operations the scenarios exercised.
///
/// ```swift
/// SentRequest(method: "POST", path: "/restaurants/1/reviews")
/// ```
package struct SentRequest: Sendable, Hashable, Codable {
    /// How many distinct requests one try of a scenario reports at most.
    package static let perScenario = 1_000

    /// The upper-cased method.
    package var method: String
    /// The raw path as sent, without the query.
    package var path: String

    package init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    /// The distinct requests of `all` in first-seen order, at most ``perScenario``.
    package static func distinct(_ all: some Sequence<SentRequest>) -> [SentRequest] {
        // A scenario sends a few requests: the first few kept are compared one by one (hashing each costs
        // more); a set takes over past them.
        let compared = 8
        var seen: Set<SentRequest> = []
        var kept: [SentRequest] = []
        for request in all {
            if kept.count < compared {
                if kept.contains(request) { continue }
            } else {
                if seen.isEmpty { seen = Set(kept) }
                if !seen.insert(request).inserted { continue }
            }
            kept.append(request)
            if kept.count == perScenario { break }
        }
        return kept
    }
}
