import Diagnostics

/// How one query parameter or header of a request must look: exact text, a regular expression that
/// finds a match in it, or absent. The same matcher serves a route's `when:` and `expect request`.
///
/// ```swift
/// let bearer = try RequestValueMatch.matches("^Bearer ")
/// bearer.mismatch(in: ["Bearer abc"])   // nil: it holds
/// RequestValueMatch.absent.mismatch(in: ["2"])   // "is '2', expected absent"
/// ```
package struct RequestValueMatch: Sendable, Equatable, CustomStringConvertible {
    /// What the value must be.
    package enum Kind: Sendable, Hashable {
        /// Exactly this text (a query value percent-decoded, `+` read as a space).
        case equals(String)
        /// A regular expression (ICU syntax, less what needs backtracking: ``LinearRegex``) that matches
        /// somewhere in the value; anchor it with `^…$`.
        case matches(String)
        /// The parameter or header is not sent at all.
        case absent
    }

    package let kind: Kind
    /// The compiled expression of `.matches`.
    let regex: LinearRegex?

    /// The text must be exactly `text`.
    package static func equals(_ text: String) -> RequestValueMatch {
        RequestValueMatch(kind: .equals(text), regex: nil)
    }

    /// The parameter or header must not be sent.
    package static let absent = RequestValueMatch(kind: .absent, regex: nil)

    /// A value that `pattern` finds a match in; throws when `pattern` is not a valid expression, or
    /// asks for what only backtracking can do (backreferences, lookaround), or is too large.
    package static func matches(_ pattern: String) throws(RequestMatchError) -> RequestValueMatch {
        do {
            return RequestValueMatch(kind: .matches(pattern), regex: try LinearRegex(pattern))
        } catch {
            throw error.unsupported
                ? .unsupportedRegex(pattern, reason: error.reason) : .invalidRegex(pattern, reason: error.reason)
        }
    }

    private init(kind: Kind, regex: LinearRegex?) {
        self.kind = kind
        self.regex = regex
    }

    package static func == (lhs: RequestValueMatch, rhs: RequestValueMatch) -> Bool {
        lhs.kind == rhs.kind
    }

    /// `'lunch'`, `matching /^Bearer /`, `absent`.
    package var description: String {
        switch kind {
        case .equals(let text): "'\(text)'"
        case .matches(let pattern): "matching /\(pattern)/"
        case .absent: "absent"
        }
    }

    /// Why `values` (every value sent under the name, in order; empty when it was not sent) do not
    /// hold, or `nil` when they do: `missing, expected 'lunch'`, `is 'x', expected 'lunch'`, `is '2', expected
    /// absent`. Any one value that holds is enough.
    package func mismatch(in values: [String]) -> String? {
        var budget = LinearRegex.requestBudget
        return mismatch(in: values, budget: &budget)
    }

    /// The same, with the steps the request's expressions may still take (``LinearRegex/requestBudget``):
    /// an expression that runs out of them does not hold, and says so.
    package func mismatch(in values: [String], budget: inout Int) -> String? {
        switch kind {
        case .absent:
            return values.isEmpty ? nil : "is '\(Self.shown(values))', expected absent"
        case .equals(let text):
            if values.contains(text) { return nil }
        case .matches:
            guard let regex else { break }
            for value in values {
                switch regex.finds(in: value, budget: &budget) {
                case true?: return nil
                case false?: continue
                case nil:
                    return "not matched against \(description): the request's regular expressions took more than "
                        + "\(LinearRegex.requestBudget.groupedDigits) steps"
                }
            }
        }
        return values.isEmpty
            ? "missing, expected \(description)" : "is '\(Self.shown(values))', expected \(description)"
    }

    private static func shown(_ values: [String]) -> String {
        let text = values.joined(separator: "', '")
        return text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }
}
