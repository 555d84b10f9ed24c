package import Diagnostics

/// How a step ended.
package enum StepOutcome: Sendable, Hashable, Codable {
    case passed
    /// The reason, and where the step is written.
    case failed(reason: String, location: SourceLocation?)
    /// Passed with something to report: the leaks `check for leaks` found under `leaks: warn`.
    case warned(reason: String)
    /// Not run: an earlier step failed, the run was cancelled, or tear-down is skipped.
    case skipped
}
