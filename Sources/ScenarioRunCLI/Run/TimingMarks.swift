import Foundation
import Scenarios
import Synchronization

/// The phase marks the benchmark harness (`shared/bench/peer/bench.py`) reads from `BENCH_TIMING_FILE`:
/// when the first scenario started and the last one finished, as Unix seconds, and how many ran.
final class TimingMarks: Sendable {
    private let path: String
    private let marks = Mutex<(first: Double?, last: Double?, scenarios: Int)>((nil, nil, 0))

    init(path: String) {
        self.path = path
    }

    func handle(_ event: RunEvent) {
        switch event {
        case .scenarioStarted:
            let now = Date().timeIntervalSince1970
            marks.withLock { $0.first = $0.first ?? now }
        case .scenarioFinished(_, let outcome, _):
            let now = Date().timeIntervalSince1970
            marks.withLock { marks in
                marks.last = now
                if outcome != .skipped { marks.scenarios += 1 }
            }
        default:
            break
        }
    }

    func write() {
        let (first, last, scenarios) = marks.withLock { ($0.first, $0.last, $0.scenarios) }
        let now = Date().timeIntervalSince1970
        let json = #"{"first_setup": \#(first ?? now), "last_teardown": \#(last ?? now), "scenarios": \#(scenarios)}"#
        try? json.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
