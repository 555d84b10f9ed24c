import Scenarios
import Synchronization

/// Collects every step's duration from run events, by step index, for a per-step breakdown.
final class StepTimes: Sendable {
    private let state = Mutex<(names: [Int: String], durations: [Int: [Duration]])>(([:], [:]))

    func handle(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan):
            guard let first = plan.scenarios.first else { return }
            state.withLock { state in
                for (index, step) in first.steps.enumerated() where state.names[index] == nil {
                    state.names[index] = step.description
                }
            }
        case .stepFinished(_, let step, _, _, let duration):
            state.withLock { $0.durations[step, default: []].append(duration) }
        default:
            break
        }
    }

    /// One Markdown row per step index: the first scenario's step text and the median duration.
    var rows: [String] {
        state.withLock { state in
            state.durations.keys.sorted().map { index in
                let sorted = state.durations[index, default: []].sorted()
                let median = sorted[sorted.count / 2]
                let name = state.names[index].map { String($0.prefix(60)) } ?? "step \(index)"
                return
                    "| workload step \(index): \(name) | \(Measurement.format(median)) | \(Measurement.format(sorted[0])) | \(Measurement.format(sorted[sorted.count - 1])) | per step | \(sorted.count) |"
            }
        }
    }
}
