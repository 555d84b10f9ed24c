package import Scenarios

/// What a TUI session ran: its runs merged into one (the latest run of each scenario), ready for the
/// plain and JUnit reporters, and the totals that decide the exit code.
package struct TUIOutcome: Sendable {
    /// `runStarted`, the latest events of every scenario, `runFinished(summary)`.
    package var events: [RunEvent]
    package var summary: RunSummary

    package init(events: [RunEvent], summary: RunSummary) {
        self.events = events
        self.summary = summary
    }
}
