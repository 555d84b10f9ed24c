/// Why a built-in step could not act. Rendered to text in one place.
public enum StepError: Error, Sendable, Hashable, CustomStringConvertible {
    case noEnvironment
    case notSetUp
    case noStore
    case unboundObject(String)
    case invalidValue(String)

    public var description: String {
        switch self {
        case .noEnvironment:
            "The runner gave this scenario no test environment (stub server, factories)."
        case .notSetUp:
            "There is no shared object manager; did the scenario run 'set up the test environment'?"
        case .noStore:
            "The shared object manager has no entity store."
        case .unboundObject(let name):
            "'\(name)' is not an object bound with 'as:'."
        case .invalidValue(let reason):
            reason
        }
    }
}
