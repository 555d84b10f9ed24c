import Diagnostics
import Foundation
import Scenarios
import Synchronization

/// Writes run events as JSON lines (``RunEventLines``) to the worker's channel and keeps the progress
/// board up to date. Unless `live`, step starts and waits are left out (the parent's headless reporters do
/// not use them, and they are half of all events), and finished scenarios are sent together: at once when
/// one failed or when at most ``sentAtOnceBelow`` scenarios are handed and unfinished (`unfinished`: the
/// parent, which hands a worker more as it hears of ends, must hear soon), else within `batchTime` (by
/// default ``batchTime``) — each write wakes the parent, which then reads and reports while this process
/// runs (DECISIONS 187). `live` (the live runner's workers) writes every event as it happens. What the
/// app printed (an ``OutputCapture``) is added to the running scenario's log, or sent as output between
/// scenarios. Every line buffered is also kept on the board (``ProgressBoard/keep(_:)``) until it is
/// sent, so the parent reads what a worker that died never sent; lines that would overflow the board's
/// copy are sent sooner instead.
package final class EventLineWriter: Sendable {
    private struct State {
        /// The lines not sent yet.
        var data: [UInt8] = []
        /// The running scenario's identity as its lines write it.
        var identity: RunEventLines.Identity?
        var startedOne = false
        /// The write due within the batch time, set when a finished scenario waits to be sent; any
        /// write cancels it.
        var due: DispatchWorkItem?
        /// The scenario running, whose log the app's output goes to.
        var current: ScenarioID?
        /// The app's last line, not ended yet, and how much it printed in the current scenario.
        var partialLine = Data()
        var captured = 0
        var dropped = 0
    }

    private let pending = Mutex(State())
    private let channel: FileHandle
    private let live: Bool
    private let board: ProgressBoard?
    private let starting: @Sendable (ScenarioID) -> (index: Int, scenario: Scenario)?
    private let finished: @Sendable (ScenarioID) -> Void
    private let unfinished: @Sendable () -> Int
    private let batchTime: DispatchTimeInterval
    private let stepTimeouts: @Sendable (Scenario) -> [Duration]
    private let capture: OutputCapture?

    init(
        channel: Int32 = STDOUT_FILENO,
        live: Bool = false,
        board: ProgressBoard? = nil,
        starting: @escaping @Sendable (ScenarioID) -> (index: Int, scenario: Scenario)? = { _ in nil },
        finished: @escaping @Sendable (ScenarioID) -> Void = { _ in },
        unfinished: @escaping @Sendable () -> Int = { 0 },
        batchTime: DispatchTimeInterval = EventLineWriter.batchTime,
        stepTimeouts: @escaping @Sendable (Scenario) -> [Duration] = { _ in [] },
        capture: OutputCapture? = nil
    ) {
        self.channel = FileHandle(fileDescriptor: channel, closeOnDealloc: false)
        self.live = live
        self.board = board
        self.starting = starting
        self.finished = finished
        self.unfinished = unfinished
        self.batchTime = batchTime
        self.stepTimeouts = stepTimeouts
        self.capture = capture
        if let capture, capture.descriptor >= 0 {
            let thread = Thread { [self] in
                while capture.waitForOutput() { takeOutput(atScenarioEnd: false) }
            }
            thread.start()
        }
    }

    func write(_ event: RunEvent) {
        switch event {
        case .scenarioStarted(let id, _):
            let handed = starting(id)
            if let board {
                board.started(
                    scenario: handed?.index ?? -1,
                    stepTimeouts: handed.map { stepTimeouts($0.scenario) } ?? []
                )
            }
        case .stepStarted(_, let step, let phase):
            board?.started(step: step, phase: phase)
            if !live { return }
        case .stepWaiting: if !live { return }
        case .stepFinished(_, _, _, let outcome, _):
            if case .failed = outcome { board?.finishedStep(failed: true) } else { board?.finishedStep(failed: false) }
        case .scenarioFinished:
            // What the app printed in the scenario, up to its end, is its log.
            if capture != nil { takeOutput(atScenarioEnd: true) }
        default: break
        }
        // Only a scenario's events travel: the parent starts and ends the run itself.
        guard event.scenario != nil else { return }
        var batched = false
        if !live, case .scenarioFinished(_, let outcome, _) = event {
            let failed = if case .failed = outcome { true } else { false }
            batched = !failed && unfinished() > Self.sentAtOnceBelow
        }
        let written = pending.withLock { state -> Bool in
            guard buffer(event, &state) else { return false }
            // At once: every event when live; the first start of the run (the parent marks when the
            // first scenario started); a scenario's end (with its events) unless it is batched.
            var now = live
            switch event {
            case .scenarioFinished:
                now = !batched
                if batched, state.due == nil {
                    let due = DispatchWorkItem { [weak self] in
                        guard let self, !pending.withLock({ flush(&$0) }) else { return }
                        exit(3)
                    }
                    state.due = due
                    DispatchQueue.global().asyncAfter(deadline: .now() + batchTime, execute: due)
                }
                state.current = nil
            case .scenarioStarted(let id, _):
                state.current = id
                state.captured = 0
                state.dropped = 0
                if !state.startedOne {
                    state.startedOne = true
                    now = true
                }
            default: break
            }
            return now ? flush(&state) : true
        }
        // The parent reads every line; when it has gone, nobody will: stop at once (its SIGTERM may never come).
        if !written { exit(3) }
        if case .scenarioFinished(let id, _, _) = event {
            board?.finishedScenario()
            finished(id)
        }
    }

    /// The worker's last lines: what the app printed since its last scenario, then `["end",STATUS]` —
    /// after its standard error is closed, so that the parent, which reads that pipe to its end before it
    /// takes the worker as ended, has all of it. The caller ends the process at once, running nothing more.
    func end(status: Int32) {
        takeOutput(atScenarioEnd: true)
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, STDERR_FILENO)
            close(null)
        }
        _ = pending.withLock { state -> Bool in
            guard flush(&state) else { return false }
            return Terminal.write(RunEventLines.encodeEnd(status: status), to: channel)
        }
    }

    /// Writes what is pending, under the lock (the output thread writes too, and lines must not mix).
    private func flush(_ state: inout State) -> Bool {
        state.due?.cancel()
        state.due = nil
        guard !state.data.isEmpty else { return true }
        defer { state.data.removeAll(keepingCapacity: state.data.capacity <= Self.keptCapacity) }
        board?.sending()
        return Terminal.write(state.data, to: channel)
    }

    /// How many scenarios handed and unfinished (the one finishing included) a finished scenario is sent
    /// at once with: a worker handed few (two, with `--jobs` 2 and more, until their scenarios prove
    /// short: ``ParallelSchedule/holdLimit``) waits for the parent to hear of its ends before it is handed
    /// more.
    static let sentAtOnceBelow = 2
    /// How long a finished scenario's lines wait at most to be sent with the next ones: the parent's
    /// report of a scenario is that much late at most (a run of 0.6 ms scenarios writes once every 30).
    static let batchTime: DispatchTimeInterval = .milliseconds(20)

    /// The most room kept for pending lines between writes (a scenario's lines are a few KB; an app that
    /// printed a megabyte does not keep it).
    private static let keptCapacity = 64 << 10

    /// Adds the event's line to what is pending, written there, as a line is added; `false` when the
    /// parent has gone.
    private func buffer(_ event: RunEvent, _ state: inout State) -> Bool {
        let start = state.data.count
        guard RunEventLines.append(event, to: &state.data, identity: &state.identity) else { return true }
        return kept(from: start, &state)
    }

    /// Adds `line` to what is pending, as the event lines are.
    private func buffer(_ line: [UInt8], _ state: inout State) -> Bool {
        let start = state.data.count
        state.data.append(contentsOf: line)
        return kept(from: start, &state)
    }

    /// Keeps a copy of the line pending from `start` on the board; what the board cannot hold beside it is
    /// sent first (and a line it cannot hold at all, at once). `false` when the parent has gone.
    private func kept(from start: Int, _ state: inout State) -> Bool {
        guard let board, !board.keep(state.data[start...]) else { return true }
        // The lines before it first, then the line alone.
        let line = Array(state.data[start...])
        state.data.removeSubrange(start...)
        guard flush(&state) else { return false }
        state.data = line
        return board.keep(state.data[...]) || flush(&state)
    }

    /// Reads what the app printed: each whole line into the current scenario's log (or, between
    /// scenarios, sent at once as output). At a scenario's end, standard output is flushed first and an
    /// unfinished line counts as a line.
    private func takeOutput(atScenarioEnd: Bool) {
        guard let capture else { return }
        if atScenarioEnd { fflush(nil) }
        let written = pending.withLock { state -> Bool in
            let data = capture.readAvailable()
            state.partialLine.append(data)
            var lines: [Data] = []
            while let newline = state.partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(Data(state.partialLine[state.partialLine.startIndex..<newline]))
                state.partialLine = Data(state.partialLine[(newline + 1)...])
            }
            while state.partialLine.count > OutputCapture.lineLimit {
                lines.append(Data(state.partialLine.prefix(OutputCapture.lineLimit)))
                state.partialLine = Data(state.partialLine.dropFirst(OutputCapture.lineLimit))
            }
            if (atScenarioEnd || state.current == nil), !state.partialLine.isEmpty {
                lines.append(state.partialLine)
                state.partialLine = Data()
            }
            guard let id = state.current else {
                for line in lines {
                    guard buffer(Array(RunEventLines.encodeOutput(String(decoding: line, as: UTF8.self))), &state)
                    else {
                        return false
                    }
                }
                return flush(&state)
            }
            for line in lines {
                guard state.captured + line.count <= OutputCapture.limit else {
                    state.dropped += line.count + 1
                    continue
                }
                state.captured += line.count + 1
                guard buffer(.log(id, String(decoding: line, as: UTF8.self)), &state) else { return false }
            }
            if atScenarioEnd, state.dropped > 0 {
                let note = "(\(state.dropped.groupedDigits) more bytes the app printed were not kept)"
                guard buffer(.log(id, note), &state) else { return false }
            }
            return live ? flush(&state) : true
        }
        if !written { exit(3) }
    }
}
