/// Why no shard could be read from `--shard` or from the CI's parallel-job variables.
package enum ShardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--shard` text that is not `K/N`.
    case malformed(String)
    /// `K/N` with N below 1 or K outside 1...N.
    case outOfRange(String, total: Int)
    /// A CI variable that is not a number in its range; `range` says which, e.g. `1 to 3`.
    case invalidVariable(name: String, value: String, expected: String)
    /// One variable of a CI pair set without the other.
    case incompleteVariables(set: String, missing: String)

    package var description: String {
        switch self {
        case .malformed(let text):
            return "Invalid shard '\(text)': expected K/N, part K of N parts, e.g. --shard 2/3."
        case .outOfRange(let text, let total) where total < 1:
            return "Invalid shard '\(text)': N must be 1 or more."
        case .outOfRange(let text, let total):
            return "Invalid shard '\(text)': K must be from 1 to \(total)."
        case .invalidVariable(let name, let value, let expected):
            return "Invalid \(name) '\(value)': expected \(expected)."
        case .incompleteVariables(let set, let missing):
            return "\(set) is set but \(missing) is not: both are needed to pick this job's shard."
        }
    }
}
