/// Why a selection could not be made.
public enum ScenarioSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidFilter(String)

    public var description: String {
        switch self {
        case .invalidFilter(let pattern): return "Invalid filter '\(pattern)': not a regular expression."
        }
    }
}
