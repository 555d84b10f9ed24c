extension PathPattern {
    /// Fills every placeholder from `lookup`, percent-encoding each value as a path segment.
    /// Throws `RoutingError.missingValue` naming the pattern and the first placeholder with no value.
    public func interpolate(_ lookup: (String) -> String?) throws(RoutingError) -> String {
        switch filled(lookup) {
        case .success(let path): path
        case .failure(let missing): throw RoutingError.missingValue(pattern: rawValue, parameter: missing.name)
        }
    }
}
