/// Nearest-name suggestions for the store's "Did you mean" messages (the `Diagnostics` module is not a dependency here).
enum NameSuggestion {
    /// Up to three candidates within a small case-insensitive edit distance of `name`, best first.
    static func nearest(to name: String, in candidates: some Sequence<String>) -> [String] {
        let needle = Array(name.lowercased())
        let threshold = max(2, needle.count / 3)
        let scored = Set(candidates).compactMap { candidate -> (Int, String)? in
            let distance = editDistance(needle, Array(candidate.lowercased()))
            return distance <= threshold ? (distance, candidate) : nil
        }
        return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(3).map(\.1)
    }

    /// `" Did you mean 'a'?"`, `" Did you mean 'a' or 'b'?"`, or `""`.
    static func didYouMean(_ suggestions: [String]) -> String {
        let quoted = suggestions.map { "'\($0)'" }
        guard let last = quoted.last else { return "" }
        if quoted.count == 1 { return " Did you mean \(last)?" }
        return " Did you mean \(quoted.dropLast().joined(separator: ", ")) or \(last)?"
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
