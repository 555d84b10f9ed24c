import Foundation
import Scenarios
import Synchronization

/// `--events FILE`: the run's events (``RunEventStream``) written as they come, so a tool can follow a
/// run while it runs — a scenario's start at once and its other lines at its end at the latest, the run's
/// first and last lines at once. A write that fails (a full disk, a reader gone) stops the stream; the run goes on and ends
/// with exit 2, saying why, as a JUnit report that could not be written does.
final class EventStreamWriter: Sendable {
    private struct State {
        var descriptor: Int32
        var pending = Data()
        var failure: FileWriteError?
    }

    private let path: String
    private let state: Mutex<State>
    /// How much is kept before it is written even in the middle of a scenario.
    private static let bufferLimit = 64 * 1024

    /// Opens (creates, or empties) the stream at `path`.
    init(path: String) throws(FileWriteError) {
        self.path = path
        state = Mutex(State(descriptor: try FileWriteError.openStream(URL(fileURLWithPath: path))))
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
        }
    }

    /// Adds the event's line.
    func handle(_ event: RunEvent) {
        let line = RunEventStream.encode(event)
        state.withLock { state in
            guard state.failure == nil, state.descriptor >= 0 else { return }
            state.pending.append(line)
            switch event {
            // A tool following the run learns at once that a scenario started and how it ended.
            case .runStarted, .scenarioStarted, .scenarioFinished, .runFinished: flush(&state)
            default: if state.pending.count >= Self.bufferLimit { flush(&state) }
            }
        }
    }

    /// Writes what is left and closes the stream; throws the first failed write, if any.
    func finish() throws(FileWriteError) {
        let failure = state.withLock { state -> FileWriteError? in
            flush(&state)
            if state.descriptor >= 0 { close(state.descriptor) }
            state.descriptor = -1
            return state.failure
        }
        if let failure { throw failure }
    }

    private func flush(_ state: inout State) {
        guard !state.pending.isEmpty, state.failure == nil, state.descriptor >= 0 else { return }
        defer { state.pending = Data() }
        do {
            try FileWriteError.writeAll(state.pending, to: state.descriptor, path: path)
        } catch {
            state.failure = error
        }
    }
}
