import Foundation
package import SharedValues

/// A received request as matchers and templates read it: its journal entry, with the query split into
/// decoded pairs and the body parsed as JSON on first use (most routes look at neither).
///
/// One request's, used by one task at a time (the server's responder waits while its matching runs on
/// the matching thread), hence `@unchecked Sendable` with its caches unlocked.
///
/// ```swift
/// let request = IncomingRequest(JournalEntry(method: "GET", path: "/search", query: "q=lunch+time"))
/// request.queryValues("q")   // ["lunch time"]
/// ```
package final class IncomingRequest: @unchecked Sendable {
    package let entry: JournalEntry
    private var pairs: [(name: String, value: String)]?
    private var parsedBody: Result<JSONValue, JSONParseError>?
    /// The steps the request's regular expressions may still take, all routes together
    /// (``LinearRegex/requestBudget``).
    package var regexBudget = LinearRegex.requestBudget
    /// Whether each table route's conditions hold, by index, once looked at (``StubSession``).
    var tableConditions: [Int: Bool] = [:]

    package init(_ entry: JournalEntry) {
        self.entry = entry
    }

    /// `GET /search?q=lunch`: the method and the target as sent.
    package var target: String {
        entry.path + (entry.query.map { "?" + $0 } ?? "")
    }

    /// The query's name/value pairs in order, percent-decoded, `+` read as a space; a name without `=` has
    /// the value `""`.
    package var queryPairs: [(name: String, value: String)] {
        if let pairs { return pairs }
        let parsed = Self.pairs(of: entry.query)
        pairs = parsed
        return parsed
    }

    /// Every value of the query parameter `name`, in order.
    package func queryValues(_ name: String) -> [String] {
        queryPairs.compactMap { $0.name == name ? $0.value : nil }
    }

    /// Every value of the header `name` (case-insensitive), in order.
    package func headerValues(_ name: String) -> [String] {
        entry.headers.compactMap { $0.hasName(name) ? $0.value : nil }
    }

    /// The body as JSON, or why it is not JSON.
    package var json: Result<JSONValue, JSONParseError> {
        if let parsedBody { return parsedBody }
        let parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: entry.body) }
        parsedBody = parsed
        return parsed
    }

    /// Splits a raw query into decoded pairs.
    package static func pairs(of query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(ascii: UInt8(ascii: "&")).map { part in
            let (name, value) =
                if let equals = part.firstIndex(ascii: UInt8(ascii: "=")) {
                    (part[..<equals], part[part.index(after: equals)...])
                } else {
                    (part, Substring(""))
                }
            return (decoded(name), decoded(value))
        }
    }

    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
