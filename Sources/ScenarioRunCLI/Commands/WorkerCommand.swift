import ArgumentParser
import Diagnostics
import Foundation
import Scenarios
import Steps
import StubServer
import Synchronization

/// `scenario-run worker` (hidden) — one worker process of a run (``WorkerPool``).
///
/// Started before the parent loads, it reads the run the parent resolved (``WorkerRun``: the paths and
/// the settings, options and `scenario-run.yml` already merged) from its channel, loads the same
/// scenarios, starts its own stub server, then reads the parent's count of the loaded scenarios (`#N F`,
/// checked) and scenario indexes into that list, one per line, and runs each (one run, scenarios as they arrive) between the default set-up
/// and tear-down, writing its run events to standard output as JSON lines and where it is to its slot
/// of the parent's ``ProgressBoard``. Ends at the end of its input. Ctrl-C and a closed terminal are the
/// parent's to handle: the worker ignores SIGINT and SIGHUP; SIGTERM cancels gracefully (the current
/// scenario's tear-down runs), a second SIGTERM exits at once. A step it cannot stop ends it, with
/// status ``WorkerExit.abandonedStepStatus``, once its scenario is reported.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "One worker process of a parallel run (started by scenario-run --jobs).",
        shouldDisplay: false
    )

    @Option var board: String?

    @Option var slot: Int = 0

    func run() async throws {
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        // First of all, before any app code runs: the channel to the parent becomes this process's own,
        // and what the app prints goes to the scenario's log, never into the channel.
        let channel = WorkerChannel.takeOver()
        let capture = OutputCapture()
        let environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        // The run, resolved once by the parent: no option is parsed and no setting merged again here.
        let run: WorkerRun
        let afterRun: Data
        do {
            (run, afterRun) = try WorkerRun.read(from: channel)
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
        let suite: ScenarioSuite
        let scenarios: [Scenario]
        let server: StubServer
        let serverStart: Result<Void, any Error>?
        do {
            suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: run.settings, directory: directory)
            server = suite.makeServer()
            (scenarios, serverStart) = try await Startup.load(
                suite,
                paths: ScenarioLines(arguments: run.paths).paths,
                startingMeanwhile: server
            )
        } catch {
            // The parent loads the same files and reports their errors.
            throw ExitCode(2)
        }
        try serverStart?.get()
        let runner = try suite.makeRunner(server: server, environment: environment) {
            // The step's action cannot be stopped; its scenario is reported (the writer has flushed it).
            _exit(WorkerExit.abandonedStepStatus)
        }
        // SIGTERM cancels the run: the current scenario's tear-down runs, nothing more is taken.
        let interrupts = InterruptHandler(signals: [SIGTERM]) { runner.cancel() }
        let progress = try board.map { try ProgressBoard(path: $0, slot: slot) }
        let output = EventLineWriter(
            channel: channel,
            live: run.liveEvents,
            board: progress,
            loaded: scenarios,
            stepTimeouts: { runner.stepTimeouts(of: $0) },
            capture: capture
        )
        let input = ScenarioInput(scenarios, channel: channel, after: afterRun)
        await runner.run(arriving: input.scenarios) { event in output.write(event) }
        if let problem = input.problem {
            Terminal.printError("error: \(problem)")
            throw ExitCode(2)
        }
        interrupts.cancel()
        await server.stop()
    }
}

/// The worker's end of its channel to the parent (a socket): given as standard input, it is moved to a
/// descriptor of its own that closes on exec, and standard input becomes `/dev/null` — app code that
/// reads standard input reads nothing, and none of what it reads or prints is the channel.
enum WorkerChannel {
    /// Takes over the channel; returns its descriptor.
    static func takeOver() -> Int32 {
        let channel = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
        guard channel >= 0 else { return STDIN_FILENO }
        let empty = open("/dev/null", O_RDONLY)
        if empty >= 0 {
            dup2(empty, STDIN_FILENO)
            if empty != STDIN_FILENO { close(empty) }
        }
        return channel
    }
}

/// What app code prints on standard output in a worker: a pipe this process reads itself, so that each line goes to the log of the scenario that printed it
/// (``EventLineWriter`` drains it when a scenario finishes), or to the parent's output between
/// scenarios. At most ``limit`` bytes a scenario are kept; a line is cut at ``lineLimit`` bytes.
final class OutputCapture: Sendable {
    /// The pipe's reading end (non-blocking); −1 when standard output could not be captured.
    let descriptor: Int32
    static let limit = 1 << 20
    static let lineLimit = 64 << 10

    init() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            descriptor = -1
            return
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        fflush(nil)
        dup2(ends[1], STDOUT_FILENO)
        close(ends[1])
        descriptor = ends[0]
    }

    /// Reads what is there without waiting.
    func readAvailable() -> Data {
        guard descriptor >= 0 else { return Data() }
        var data = Data()
        withUnsafeTemporaryAllocation(byteCount: 16 << 10, alignment: 1) { chunk in
            while true {
                let count = read(descriptor, chunk.baseAddress, chunk.count)
                if count <= 0 { break }
                data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            }
        }
        return data
    }

    /// Waits until there is something to read (or the pipe is gone: `false`).
    func waitForOutput() -> Bool {
        guard descriptor >= 0 else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, -1)
            if ready > 0 { return entry.revents & Int16(POLLIN) != 0 }
            if ready < 0, errno != EINTR { return false }
        }
    }
}

/// Writes run events as JSON lines (``RunEventLines``) to the worker's channel, a scenario's events in
/// one write when it finishes, and keeps the progress board up to date. Unless `live`, step starts and
/// waits are left out: the parent's headless reporters do not use them, and they are half of all events.
/// `live` (the live runner's workers) writes every event as it happens. What the app printed (an
/// ``OutputCapture``) is added to the running scenario's log, or sent as output between scenarios.
/// Every line buffered is also kept on the board (``ProgressBoard/keep(_:)``) until it is sent, so the
/// parent reads what a worker that died never sent; lines that would overflow the board's copy are sent
/// sooner instead.
final class EventLineWriter: Sendable {
    private struct State {
        var data = Data()
        var startedOne = false
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
    private let loaded: [Scenario]
    private let indexes: [ScenarioID: Int]
    private let stepTimeouts: @Sendable (Scenario) -> [Duration]
    private let capture: OutputCapture?

    init(
        channel: Int32 = STDOUT_FILENO,
        live: Bool = false,
        board: ProgressBoard? = nil,
        loaded: [Scenario] = [],
        stepTimeouts: @escaping @Sendable (Scenario) -> [Duration] = { _ in [] },
        capture: OutputCapture? = nil
    ) {
        self.channel = FileHandle(fileDescriptor: channel, closeOnDealloc: false)
        self.live = live
        self.board = board
        self.loaded = loaded
        self.stepTimeouts = stepTimeouts
        self.capture = capture
        indexes = board == nil ? [:] : Dictionary(loaded.enumerated().map { ($1.id, $0) }) { first, _ in first }
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
            if let board {
                let index = indexes[id] ?? -1
                board.started(
                    scenario: index,
                    stepTimeouts: loaded.indices.contains(index) ? stepTimeouts(loaded[index]) : []
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
        guard let line = RunEventLines.encode(event) else { return }
        let written = pending.withLock { state -> Bool in
            guard buffer(line, &state) else { return false }
            // At once: every event when live; the first start of the run (the parent marks when the
            // first scenario started); a scenario's end (with its events).
            var now = live
            switch event {
            case .scenarioFinished:
                now = true
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
        if case .scenarioFinished = event { board?.finishedScenario() }
    }

    /// Writes what is pending, under the lock (the output thread writes too, and lines must not mix).
    private func flush(_ state: inout State) -> Bool {
        guard !state.data.isEmpty else { return true }
        defer { state.data = Data() }
        board?.sending()
        return Terminal.write(state.data, to: channel)
    }

    /// Adds `line` to what is pending, and its copy to the board; what the board cannot hold beside it
    /// is sent first (and a line it cannot hold at all, at once). `false` when the parent has gone.
    private func buffer(_ line: Data, _ state: inout State) -> Bool {
        if let board, !board.keep(line) {
            guard flush(&state) else { return false }
            if !board.keep(line) {
                state.data = line
                return flush(&state)
            }
        }
        state.data.append(line)
        return true
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
                    guard buffer(RunEventLines.encodeOutput(String(decoding: line, as: UTF8.self)), &state) else {
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
                if let event = RunEventLines.encode(.log(id, String(decoding: line, as: UTF8.self))) {
                    guard buffer(event, &state) else { return false }
                }
            }
            if atScenarioEnd, state.dropped > 0 {
                let note = "(\(state.dropped.groupedDigits) more bytes the app printed were not kept)"
                if let event = RunEventLines.encode(.log(id, note)) {
                    guard buffer(event, &state) else { return false }
                }
            }
            return live ? flush(&state) : true
        }
        if !written { exit(3) }
    }
}

/// The scenarios the parent names on the channel: its count and fingerprint of the scenarios it
/// loaded first (`#N F`, which must be this worker's too, as the indexes are into the same list: a
/// scenario renamed between the two loads keeps the count), then one index per line. Read on a thread
/// of their own: a blocking read must not hold the event loop every task runs on. At the end of its
/// input the thread waits for the channel to close: the parent has ended (whatever way, `kill -9`
/// too), and so does this process, at once.
final class ScenarioInput: Sendable {
    let scenarios: AsyncStream<Scenario>
    private let mismatch = Mutex<String?>(nil)

    /// `#N F\n`: how many scenarios were loaded, and the FNV-1a hash of their files and names in order.
    static func header(of loaded: [ScenarioID]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in loaded {
            for byte in id.file.utf8 + [0] + id.name.utf8 + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return "#\(loaded.count) \(String(hash, radix: 16))\n"
    }

    /// `after`: what was read from the channel past the run's own line.
    init(_ loaded: [Scenario], channel: Int32, after: Data = Data()) {
        let (stream, continuation) = AsyncStream.makeStream(of: Scenario.self)
        scenarios = stream
        let header = Self.header(of: loaded.map(\.id)).dropLast()
        let thread = Thread { [self] in
            var buffer = after
            var chunk = [UInt8](repeating: 0, count: 4096)
            // The lines already read come first; then what the channel brings.
            reading: while true {
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    if line.hasPrefix("#") {
                        guard line == header else {
                            let count = line.dropFirst().split(separator: " ").first ?? ""
                            self.mismatch.withLock {
                                $0 =
                                    count == String(loaded.count)
                                    ? "The scenario files changed while the run started (a scenario was renamed or moved)."
                                    : "The scenario files changed while the run started (\(count) scenarios, now \(loaded.count))."
                            }
                            break reading
                        }
                    } else if let index = Int(line), loaded.indices.contains(index) {
                        continuation.yield(loaded[index])
                    }
                }
                let count = chunk.withUnsafeMutableBytes { read(channel, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                buffer.append(contentsOf: chunk[0..<count])
            }
            continuation.finish()
            Self.exitWhenTheParentEnds(channel)
        }
        thread.start()
    }

    /// Why the input was refused, if it was.
    var problem: String? { mismatch.withLock { $0 } }

    /// Waits for the channel to hang up — the parent's every descriptor of it closed, which happens
    /// only when the parent has ended (it keeps reading until this process ends) — then exits.
    private static func exitWhenTheParentEnds(_ channel: Int32) {
        var entry = pollfd(fd: channel, events: 0, revents: 0)
        while true {
            let ready = poll(&entry, 1, -1)
            if ready > 0, entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { _exit(3) }
            if ready < 0, errno != EINTR { return }
        }
    }
}
