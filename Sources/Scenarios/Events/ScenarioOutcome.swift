/// How a scenario ended.
package enum ScenarioOutcome: Sendable, Hashable, Codable {
    case passed
    /// The first failing step (its index in the plan) and its reason.
    case failed(step: Int, reason: String)
    /// Not run: `--fail-fast` after a failure, or the run was cancelled.
    case skipped
}
