import Foundation
import Scenarios
import Synchronization

/// What a run leaves in `.scenario-run/`, gathered from its events: the scenarios that ran and those that
/// failed, by file and name (for `--rerun-failed`), and the distinct requests they sent (for `check
/// --openapi`'s coverage, at most ``SentRequestsState/limit``), and the line of `history.jsonl` (``RunHistory``).
final class StateCollector: Sendable {
    private struct Seen {
        var ran: Set<ScenarioID> = []
        var failed: Set<ScenarioID> = []
        /// Passed after an earlier try failed (`--retries`).
        var flaky: Set<ScenarioID> = []
        /// Scenarios with a failed try, as the run names them.
        var failedTries: Set<ScenarioID> = []
        /// Each file's ``FailureState/stableFile(_:)``, found once per file.
        var files: [String: String] = [:]
        /// The file of the scenario that finished last, and its stable name.
        var lastFile: (file: String, stable: String)?
        var requests: [SentRequest] = []
        var knownRequests: Set<SentRequest> = []
        var droppedRequests = 0
    }

    private let seen = Mutex(Seen())

    func handle(_ event: RunEvent) {
        switch event {
        case .requests(_, let sent):
            seen.withLock { seen in
                for request in sent where !seen.knownRequests.contains(request) {
                    guard seen.requests.count < SentRequestsState.limit else {
                        seen.droppedRequests += 1
                        continue
                    }
                    seen.knownRequests.insert(request)
                    seen.requests.append(request)
                }
            }
        case .attemptFinished(let id, _, .failed, _):
            seen.withLock { _ = $0.failedTries.insert(id) }
        case .scenarioFinished(let id, let outcome, _):
            let failed: Bool
            switch outcome {
            case .passed: failed = false
            case .failed: failed = true
            case .skipped: return
            }
            seen.withLock { seen in
                let file: String
                // A file's scenarios finish one after another: the last file's name is compared first.
                if let last = seen.lastFile, last.file == id.file {
                    file = last.stable
                } else if let known = seen.files[id.file] {
                    file = known
                } else {
                    file = FailureState.stableFile(id.file)
                    seen.files[id.file] = file
                }
                seen.lastFile = (id.file, file)
                let key = ScenarioID(file: file, name: id.name)
                seen.ran.insert(key)
                if failed { seen.failed.insert(key) }
                if !failed, !seen.failedTries.isEmpty, seen.failedTries.contains(id) { seen.flaky.insert(key) }
            }
        default:
            return
        }
    }

    /// The scenarios that failed.
    var failed: Set<ScenarioID> { seen.withLock { $0.failed } }
    /// The scenarios that ran (passed or failed).
    var ran: Set<ScenarioID> { seen.withLock { $0.ran } }

    /// The run's line of `history.jsonl`.
    func historyRun(_ summary: RunSummary, finished: Date) -> RunHistory.Run {
        seen.withLock { seen in
            var run = RunHistory.Run(
                time: finished.timeIntervalSince1970,
                duration: Double(summary.duration.components.seconds)
                    + Double(summary.duration.components.attoseconds) / 1e18,
                passed: summary.passed,
                failed: summary.failed,
                skipped: summary.skipped,
                flaky: seen.flaky.count,
                cancelled: summary.cancelled
            )
            guard seen.ran.count <= RunHistory.scenariosPerLine else { return run }
            func keys(_ ids: some Sequence<ScenarioID>) -> String {
                ids.map { RunHistory.key(file: $0.file, name: $0.name) }.sorted().joined(separator: " ")
            }
            run.passedKeys = keys(seen.ran.subtracting(seen.failed).subtracting(seen.flaky))
            run.failedKeys = keys(seen.failed)
            run.flakyKeys = keys(seen.flaky)
            return run
        }
    }

    /// The requests the run sent, as `last-requests.json` keeps them.
    func sentRequests(finished: Date) -> SentRequestsState.Run {
        seen.withLock {
            SentRequestsState.Run(
                finished: finished,
                scenarios: $0.ran.count,
                requests: $0.requests,
                dropped: $0.droppedRequests
            )
        }
    }
}
