extension PathPattern {
    /// Fills every placeholder from `lookup`, percent-encoding each value as a path segment.
    /// Throws `RoutingError.missingValue` naming the pattern and the first placeholder with no value —
    /// an empty value counts as none, since an empty path segment names no resource.
    public func interpolate(_ lookup: (String) -> String?) throws(RoutingError) -> String {
        switch filled({ name in lookup(name).flatMap { $0.isEmpty ? nil : $0 } }) {
        case .success(let path): path
        case .failure(let missing): throw RoutingError.missingValue(pattern: rawValue, parameter: missing.name)
        }
    }
}
