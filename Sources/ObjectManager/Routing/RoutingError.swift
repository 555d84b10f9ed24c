/// Why a URL could not be built from a route.
public enum RoutingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern names a placeholder that neither the object nor the parameters supply.
    case missingValue(pattern: String, parameter: String)
    /// The route set has no such route.
    case noRoute(Route.Key, suggestions: [String])
    /// A route with that key is already in the route set.
    case duplicateRoute(Route.Key)

    public var description: String {
        switch self {
        case .missingValue(let pattern, let parameter):
            "No value for ':\(parameter)' in \(pattern)."
        case .noRoute(let key, let suggestions):
            "The route set has no \(key)."
                + (suggestions.isEmpty ? "" : " Known: " + suggestions.joined(separator: ", ") + ".")
        case .duplicateRoute(let key):
            "The route set already has a \(key)."
        }
    }
}
