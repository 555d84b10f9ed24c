/// The totals of a run.
public struct RunSummary: Sendable, Hashable, Codable {
    public var passed: Int
    public var failed: Int
    public var skipped: Int
    public var duration: Duration
    /// Whether the run was cancelled before all scenarios ran.
    public var cancelled: Bool

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
