/// Why a selection could not be made.
package enum ScenarioSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidFilter(String)

    package var description: String {
        switch self {
        case .invalidFilter(let pattern): return "Invalid filter '\(pattern)': not a regular expression."
        }
    }
}
