import Scenarios

/// What the runner loop must do after the state handled a key.
enum TUIAction: Sendable, Hashable {
    /// Re-run these scenarios (in plan order).
    case rerun([ScenarioID])
    /// Re-run every scenario of the tree.
    case rerunAll
    /// Re-run the scenarios that failed.
    case rerunFailed([ScenarioID])
    /// Cancel the run in progress; the current scenario's tear-down still runs.
    case cancel
    /// Leave the runner (after cancelling a run in progress).
    case quit
}
