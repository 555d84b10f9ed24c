import Scenarios
import Synchronization

/// Remembers the scenarios that ran and those that failed, by file and name, for `--rerun-failed`.
final class FailureCollector: Sendable {
    private struct Seen {
        var ran: Set<ScenarioID> = []
        var failed: Set<ScenarioID> = []
        /// Each file's ``FailureState/stableFile(_:)``, found once per file.
        var files: [String: String] = [:]
    }

    private let seen = Mutex(Seen())

    func handle(_ event: RunEvent) {
        guard case .scenarioFinished(let id, let outcome, _) = event else { return }
        let failed: Bool
        switch outcome {
        case .passed: failed = false
        case .failed: failed = true
        case .skipped: return
        }
        seen.withLock { seen in
            let file: String
            if let known = seen.files[id.file] {
                file = known
            } else {
                file = FailureState.stableFile(id.file)
                seen.files[id.file] = file
            }
            let key = ScenarioID(file: file, name: id.name)
            seen.ran.insert(key)
            if failed { seen.failed.insert(key) }
        }
    }

    /// The scenarios that failed.
    var failed: Set<ScenarioID> { seen.withLock { $0.failed } }
    /// The scenarios that ran (passed or failed).
    var ran: Set<ScenarioID> { seen.withLock { $0.ran } }
}
