/// A matcher that cannot be built, rendered by ``message``.
public enum RequestMatchError: Error, Sendable, Equatable {
    case invalidRegex(String)

    /// The sentence shown after `error:`.
    public var message: String {
        switch self {
        case .invalidRegex(let pattern): "Invalid regular expression '\(pattern)'."
        }
    }
}
