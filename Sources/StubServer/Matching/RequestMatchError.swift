/// A matcher that cannot be built, rendered by ``message``.
public enum RequestMatchError: Error, Sendable, Equatable {
    /// Not a regular expression: `(`.
    case invalidRegex(String, reason: String)
    /// A valid expression asking for what the stub server's matcher does not do without backtracking
    /// (backreferences, lookaround, possessive quantifiers), or too large.
    case unsupportedRegex(String, reason: String)

    /// The sentence shown after `error:`.
    public var message: String {
        switch self {
        case .invalidRegex(let pattern, let reason):
            "Invalid regular expression '\(Self.shown(pattern))': \(reason)."
        case .unsupportedRegex(let pattern, let reason):
            "Unsupported regular expression '\(Self.shown(pattern))': \(reason) (the stub server matches without backtracking, "
                + "in time linear in the value)."
        }
    }

    /// The pattern, or its first 60 characters and an ellipsis.
    private static func shown(_ pattern: String) -> String {
        pattern.count <= 60 ? pattern : String(pattern.prefix(60)) + "…"
    }
}
