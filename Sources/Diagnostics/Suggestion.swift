/// A did-you-mean not yet worked out: the unknown name and what it could have been. A load that finds
/// 20,000 unknown names shows a hundred of them, so a diagnostic holds its suggestion this way and
/// searches the candidates only when its message is read (``Diagnostic/message``).
///
/// ```swift
/// let suggestion = Suggestion(for: "stub rout", in: ["stub route", "suspend queue"])
/// suggestion.text // " Did you mean 'stub route'?"
/// ```
package struct Suggestion: Sendable, Hashable {
    /// The name that was not known.
    package var name: String
    /// The names that would have been.
    package var candidates: [String]
    /// How the candidates are listed when none is near (`Known`, `Bound so far`); `nil`: not listed.
    package var label: String?

    package init(for name: String, in candidates: some Sequence<String>, listing label: String? = nil) {
        self.name = name
        self.candidates = Array(candidates)
        self.label = label
    }

    /// ` Did you mean 'a'?`, the candidates when a label lists them and none is near, or "".
    package var text: String {
        if let label { return Suggestions.didYouMeanOrKnown(name, in: candidates, label: label) }
        return Suggestions.didYouMean(name, in: candidates)
    }

    /// Compared by name and label only: a diagnostic's place and text decide its candidates (one
    /// registry, the names bound before that step), and a set of bound names need not list them in one
    /// order. Two diagnostics of an outline's rows are the same mistake said twice.
    package static func == (lhs: Suggestion, rhs: Suggestion) -> Bool {
        lhs.name == rhs.name && lhs.label == rhs.label
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(label)
    }
}
