/// Why a ``ScenarioContext`` could not resolve a `${...}` reference at run time.
public enum ScenarioContextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No step bound this name (yet).
    case unboundName(String, in: String, step: String?)
    /// The bound value has no such attribute.
    case unknownAttribute(String, of: String, in: String, step: String?)
    /// A `${` without its `}`, or `${}`.
    case malformedReference(in: String, step: String?)

    public var description: String {
        switch self {
        case .unboundName(let name, let text, let step):
            return "Unbound name '\(name)' in '\(text)'\(Self.suffix(step))."
        case .unknownAttribute(let keyPath, let name, let text, let step):
            return "'\(name)' has no attribute '\(keyPath)' in '\(text)'\(Self.suffix(step))."
        case .malformedReference(let text, let step):
            return "Malformed '${...}' reference in '\(text)'\(Self.suffix(step))."
        }
    }

    private static func suffix(_ step: String?) -> String {
        step.map { " of step '\($0)'" } ?? ""
    }
}
