/// Why a step definition could not be registered.
package enum StepRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another definition already has this name (compared case-insensitively, spaces collapsed).
    case duplicateName(String)
    /// The name is empty or only spaces.
    case emptyName

    package var description: String {
        switch self {
        case .duplicateName(let name): return "A step named '\(name)' is already registered."
        case .emptyName: return "A step needs a name."
        }
    }
}
