/// Why a ``MappingTest`` failed.
public enum MappingTestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source object had nothing at the test's key path.
    case noSourceObject(keyPath: String)
    /// Mapping itself failed.
    case mappingFailed(String)
    /// Each unmet expectation, in the order they were stated.
    case unmetExpectations([String])

    public var description: String {
        switch self {
        case .noSourceObject(let keyPath):
            "The source object has no object to map at '\(keyPath)'."
        case .mappingFailed(let reason):
            "Mapping failed: \(reason)"
        case .unmetExpectations(let failures):
            "\(failures.count) mapping expectation\(failures.count == 1 ? "" : "s") not met:\n"
                + failures.map { "- \($0)" }.joined(separator: "\n")
        }
    }
}
