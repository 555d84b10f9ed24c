import Foundation
import Scenarios
import Synchronization

/// `--events FILE`: the run's events (``RunEventStream``) written as they come, so a tool can follow a
/// run while it runs — a scenario's start at once and its other lines at its end at the latest, the run's
/// first and last lines at once. A write that fails (a full disk, a reader gone) stops the stream; the run goes on and ends
/// with exit 2, saying why, as a JUnit report that could not be written does.
final class EventStreamWriter: Sendable {
    private struct State {
        var output: AppendedOutput
    }

    private let path: String
    private let state: Mutex<State>
    /// How much is kept before it is written even in the middle of a scenario.
    private static let bufferLimit = 64 * 1024

    /// Opens (creates, or empties) the stream at `path`.
    init(path: String) throws(FileWriteError) {
        self.path = path
        state = Mutex(
            State(output: AppendedOutput(descriptor: try FileWriteError.openStream(URL(fileURLWithPath: path))))
        )
    }

    deinit {
        state.withLock { state in
            if state.output.descriptor >= 0 { close(state.output.descriptor) }
        }
    }

    /// Adds the event's line.
    func handle(_ event: RunEvent) {
        let line = RunEventStream.encode(event)
        state.withLock { state in
            guard state.output.isWritable else { return }
            state.output.pending.append(line)
            switch event {
            // A tool following the run learns at once that a scenario started and how it ended.
            case .runStarted, .scenarioStarted, .scenarioFinished, .runFinished: state.output.flush(path: path)
            default: if state.output.pending.count >= Self.bufferLimit { state.output.flush(path: path) }
            }
        }
    }

    /// Writes what is left and closes the stream; throws the first failed write, if any.
    func finish() throws(FileWriteError) {
        let failure = state.withLock { state -> FileWriteError? in
            state.output.flush(path: path)
            if state.output.descriptor >= 0 { close(state.output.descriptor) }
            state.output.descriptor = -1
            return state.output.failure
        }
        if let failure { throw failure }
    }
}
