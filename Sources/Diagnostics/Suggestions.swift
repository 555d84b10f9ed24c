import Synchronization

/// Nearest-name suggestions for "did you mean" messages.
package enum Suggestions {
    /// Counts the searches of ``nearest(to:in:limit:)`` made in a task, so that a test can tell how many
    /// suggestions a load worked out (`Suggestions.$tally.withValue(tally) { … }`); `nil` outside tests.
    @TaskLocal package static var tally: Tally?

    /// A count of suggestion searches, shared by the tasks of one test.
    package final class Tally: Sendable {
        private let searches = Mutex(0)

        package init() {}

        /// How many searches were made.
        package var count: Int { searches.withLock { $0 } }

        func increment() { searches.withLock { $0 += 1 } }
    }

    /// The candidates closest to `name` (case-insensitive edit distance), best first, at most `limit`.
    ///
    /// ```swift
    /// Suggestions.nearest(to: "stub rout", in: ["stub route", "suspend queue"]) // ["stub route"]
    /// ```
    package static func nearest(to name: String, in candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        tally?.increment()
        let loweredName = name.lowercased()
        let needle = Array(loweredName.unicodeScalars)
        let threshold = max(2, needle.count / 3)
        var scored: [(distance: Int, name: String)] = []
        for candidate in Set(candidates) {
            let lowered = candidate.lowercased()
            let scalars = Array(lowered.unicodeScalars)
            // A candidate that holds the name is near whatever the distance (`nope` in `nope again`).
            if needle.count >= 3, scalars.count >= needle.count, lowered.contains(loweredName) {
                scored.append((editDistance(needle, scalars), candidate))
            } else if let distance = editDistance(needle, scalars, limit: threshold) {
                scored.append((distance, candidate))
            }
        }
        scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.prefix(limit).map(\.name)
    }

    /// "Did you mean 'a'?" / "Did you mean 'a' or 'b'?" / "" when nothing is near.
    package static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
        didYouMean(suggestions: nearest(to: name, in: candidates))
    }

    /// " Did you mean 'a'?" when a candidate is near `name`; otherwise the candidates themselves,
    /// sorted (the first 12, then a count): " Known: 'a', 'b'." — so an unknown name is never left without
    /// what would have been accepted. `label` words the list (`Known`, `Valid values are`).
    package static func didYouMeanOrKnown(
        _ name: String,
        in candidates: some Sequence<String>,
        label: String = "Known"
    ) -> String {
        let all = Array(Set(candidates)).sorted()
        let near = nearest(to: name, in: all)
        if !near.isEmpty { return didYouMean(suggestions: near) }
        guard !all.isEmpty else { return "" }
        let shown = all.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
        return " \(label): \(shown)" + (all.count > 12 ? " and \(all.count - 12) more." : ".")
    }

    /// " Did you mean 'a'?" for suggestions already found; "" when there are none.
    package static func didYouMean(suggestions near: [String]) -> String {
        switch near.count {
        case 0: return ""
        case 1: return " Did you mean '\(near[0])'?"
        default:
            let quoted = near.map { "'\($0)'" }
            return " Did you mean " + quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
                + "?"
        }
    }

    /// The edit distance between two texts, case-sensitive: how near a request's path is to a route's.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        editDistance(a, b, limit: Int.max) ?? Int.max
    }

    /// The edit distance when it is at most `limit`, else `nil`, found without working it out: lengths
    /// further apart than the limit are never compared, and the comparison stops at the first row all
    /// past the limit (an unknown name of 60,000 characters against 40 step names costs nothing).
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var smallest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                smallest = min(smallest, current[j])
            }
            if smallest > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
