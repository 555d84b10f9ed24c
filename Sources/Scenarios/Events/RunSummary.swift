/// The totals of a run.
public struct RunSummary: Sendable, Hashable, Codable {
    /// The number of scenarios that passed.
    public var passed: Int
    /// The number of scenarios that failed.
    public var failed: Int
    /// The number of scenarios that did not run: marked `skip:`, or not reached after the run stopped.
    public var skipped: Int
    /// How long the run took.
    public var duration: Duration
    /// Whether the run was cancelled before all scenarios ran.
    public var cancelled: Bool

    /// Makes a summary of these totals; each is zero by default.
    public init(passed: Int = 0, failed: Int = 0, skipped: Int = 0, duration: Duration = .zero, cancelled: Bool = false)
    {
        self.passed = passed
        self.failed = failed
        self.skipped = skipped
        self.duration = duration
        self.cancelled = cancelled
    }

    /// `N passed, N failed`, with `, N skipped` only when some were skipped.
    public var line: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
