import Scenarios
import Synchronization

/// Remembers the names of the scenarios that ran and of those that failed, for `--rerun-failed`.
final class FailureCollector: Sendable {
    private let seen = Mutex<(ran: Set<String>, failed: Set<String>)>(([], []))

    func handle(_ event: RunEvent) {
        guard case .scenarioFinished(let id, let outcome, _) = event else { return }
        seen.withLock { seen in
            switch outcome {
            case .passed: seen.ran.insert(id.name)
            case .failed:
                seen.ran.insert(id.name)
                seen.failed.insert(id.name)
            case .skipped: break
            }
        }
    }

    /// The names of the scenarios that failed.
    var names: Set<String> { seen.withLock { $0.failed } }
    /// The names of the scenarios that ran (passed or failed).
    var ranNames: Set<String> { seen.withLock { $0.ran } }
}
