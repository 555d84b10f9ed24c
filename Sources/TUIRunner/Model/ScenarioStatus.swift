/// Where a scenario or a step stands in the tree.
enum ScenarioStatus: Sendable, Hashable {
    case pending
    case running
    case passed
    case failed
    case skipped
    /// Passed with a warning (a step only: `check for leaks` under `leaks: warn`).
    case warned

    /// Whether it has ended (passed, failed or skipped).
    var isDone: Bool {
        switch self {
        case .pending, .running: false
        case .passed, .failed, .skipped, .warned: true
        }
    }
}
