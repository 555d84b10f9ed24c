/// Why a built-in step could not act. Rendered to text in one place.
public enum StepError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The runner gave the scenario no test environment.
    case noEnvironment
    /// There is no shared object manager: the scenario did not run `set up the test environment`.
    case notSetUp
    /// The shared object manager has no entity store.
    case noStore
    /// No earlier step bound an object with `as:` to this name.
    case unboundObject(String)
    /// A value given to a step is not valid; the string is the whole reason.
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
