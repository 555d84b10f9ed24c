import Foundation
import Scenarios
import Synchronization

/// What a run leaves in `.scenario-run/`, gathered from its events: the scenarios that ran and those that
/// failed, by file and name (for `--rerun-failed`), and the distinct requests they sent (for `check
/// --openapi`'s coverage, at most ``SentRequestsState/limit``).
final class StateCollector: Sendable {
    private struct Seen {
        var ran: Set<ScenarioID> = []
        var failed: Set<ScenarioID> = []
        /// Each file's ``FailureState/stableFile(_:)``, found once per file.
        var files: [String: String] = [:]
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
        case .scenarioFinished(let id, let outcome, _):
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
        default:
            return
        }
    }

    /// The scenarios that failed.
    var failed: Set<ScenarioID> { seen.withLock { $0.failed } }
    /// The scenarios that ran (passed or failed).
    var ran: Set<ScenarioID> { seen.withLock { $0.ran } }

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
