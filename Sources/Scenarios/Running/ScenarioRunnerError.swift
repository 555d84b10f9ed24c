/// Why a runner could not be made from its settings.
public enum ScenarioRunnerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A default set-up or tear-down step name that no definition has.
    case unknownDefaultStep(String, suggestion: String)
    /// A default step whose definition needs arguments.
    case invalidDefaultStep(String, message: String)

    public var description: String {
        switch self {
        case .unknownDefaultStep(let name, let suggestion):
            return "Unknown default step '\(name)'.\(suggestion)"
        case .invalidDefaultStep(let name, let message):
            return "Default step '\(name)' cannot run without arguments: \(message)"
        }
    }
}
