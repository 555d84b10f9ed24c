extension Shard {
    /// A CI's pair of parallel-job variables: which job this is, and how many there are.
    package struct CIVariables: Sendable, Hashable {
        package var index: String
        package var total: String
        /// Whether the index counts from 0 (CircleCI, Buildkite) rather than from 1 (GitLab).
        package var zeroBased: Bool

        /// The pairs read, in this order; the first that names a shard wins.
        package static let known = [
            CIVariables(index: "CI_NODE_INDEX", total: "CI_NODE_TOTAL", zeroBased: false),
            CIVariables(index: "CIRCLE_NODE_INDEX", total: "CIRCLE_NODE_TOTAL", zeroBased: true),
            CIVariables(index: "BUILDKITE_PARALLEL_JOB", total: "BUILDKITE_PARALLEL_JOB_COUNT", zeroBased: true),
        ]
    }

    /// The shard the CI's parallel-job variables select, or `nil` when none does (no variables, or a
    /// total of 1 without an index — GitLab sets `CI_NODE_TOTAL=1` on every job without `parallel:`).
    /// An empty variable counts as unset.
    ///
    /// ```swift
    /// let shard = try Shard(environment: ["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "3"])   // 1/3
    /// ```
    package init?(environment: [String: String]) throws(ShardError) {
        for variables in CIVariables.known {
            if let shard = try Self.shard(variables, in: environment) {
                self = shard
                return
            }
        }
        return nil
    }

    private static func shard(_ variables: CIVariables, in environment: [String: String]) throws(ShardError) -> Shard? {
        let indexText = environment[variables.index].flatMap { $0.isEmpty ? nil : $0 }
        let totalText = environment[variables.total].flatMap { $0.isEmpty ? nil : $0 }
        guard let totalText else {
            if let indexText, indexText != (variables.zeroBased ? "0" : "1") {
                throw .incompleteVariables(set: variables.index, missing: variables.total)
            }
            return nil
        }
        guard let total = number(Substring(totalText)), total >= 1 else {
            throw .invalidVariable(
                name: variables.total,
                value: totalText,
                expected: "the number of parallel jobs, 1 or more"
            )
        }
        guard let indexText else {
            if total == 1 { return nil }
            throw .incompleteVariables(set: variables.total, missing: variables.index)
        }
        let first = variables.zeroBased ? 0 : 1
        guard let index = number(Substring(indexText)), (first..<(first + total)).contains(index) else {
            throw .invalidVariable(
                name: variables.index,
                value: indexText,
                expected:
                    "\(first) to \(first + total - 1) (\(variables.index) counts from \(first); \(variables.total) is \(total))"
            )
        }
        return Shard(index: index - first + 1, total: total)
    }
}
