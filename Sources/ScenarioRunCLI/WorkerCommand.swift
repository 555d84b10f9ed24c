import ArgumentParser
import Diagnostics
import Foundation
import Scenarios
import Steps
import StubServer
import Synchronization

/// `scenario-run worker` (hidden) — one worker process of a run (``WorkerPool``).
///
/// Started before the parent loads, it loads the same scenarios, starts its own stub server, then reads
/// from standard input the parent's count of the loaded scenarios (`#N`, checked) and scenario indexes
/// into that list, one per line, and runs each (one run, scenarios as they arrive) between the default set-up
/// and tear-down, writing its run events to standard output as JSON lines and where it is to its slot
/// of the parent's ``ProgressBoard``. Ends at the end of its input. Ctrl-C and a closed terminal are the
/// parent's to handle: the worker ignores SIGINT and SIGHUP; SIGTERM cancels gracefully (the current
/// scenario's tear-down runs), a second SIGTERM exits at once. A step it cannot stop ends it, with
/// status ``WorkerPool/abandonedStepStatus``, once its scenario is reported.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "One worker process of a parallel run (started by scenario-run --jobs).",
        shouldDisplay: false
    )

    @Argument var paths: [String] = []

    @OptionGroup var project: ProjectOptions

    @Option var timeout: Double?

    @Option var board: String?

    @Option var slot: Int = 0

    @Flag var liveEvents = false

    @Flag var failFast = false

    @Option var `repeat` = 1

    @Option var retries = 0

    func run() async throws {
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let suite: ScenarioSuite
        let scenarios: [Scenario]
        let server: StubServer
        let serverStart: Result<Void, any Error>?
        do {
            var settings = try project.settings(environment: environment)
            if let timeout, let duration = Duration(checkedSeconds: timeout) { settings.stepTimeout = duration }
            if failFast { settings.failFast = true }
            settings.repetitions = `repeat`
            settings.retries = retries
            suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            server = suite.makeServer()
            (scenarios, serverStart) = try await Startup.load(
                suite,
                paths: ScenarioLines(arguments: paths).paths,
                startingMeanwhile: server
            )
        } catch {
            // The parent loads the same files and reports their errors.
            throw ExitCode(2)
        }
        try serverStart?.get()
        let runner = try suite.makeRunner(server: server, environment: environment) {
            // The step's action cannot be stopped; its scenario is reported (the writer has flushed it).
            _exit(WorkerPool.abandonedStepStatus)
        }
        // SIGTERM cancels the run: the current scenario's tear-down runs, nothing more is taken.
        let interrupts = InterruptHandler(signals: [SIGTERM]) { runner.cancel() }
        let progress = try board.map { try ProgressBoard(path: $0, slot: slot) }
        let output = EventLineWriter(live: liveEvents, board: progress, loaded: scenarios)
        let input = ScenarioInput(scenarios)
        await runner.run(arriving: input.scenarios) { event in output.write(event) }
        if let problem = input.problem {
            Terminal.printError("error: \(problem)")
            throw ExitCode(2)
        }
        interrupts.cancel()
        await server.stop()
    }
}

/// Writes run events as JSON lines (``RunEventLines``) to standard output, a scenario's events in one
/// write when it finishes, and keeps the progress board up to date. Unless `live`, step starts and waits
/// are left out: the parent's headless reporters do not use them, and they are half of all events.
/// `live` (the live runner's workers) writes every event as it happens.
final class EventLineWriter: Sendable {
    private let pending = Mutex<(data: Data, startedOne: Bool)>((Data(), false))
    private let live: Bool
    private let board: ProgressBoard?
    private let indexes: [ScenarioID: Int]

    init(live: Bool = false, board: ProgressBoard? = nil, loaded: [Scenario] = []) {
        self.live = live
        self.board = board
        indexes = board == nil ? [:] : Dictionary(loaded.enumerated().map { ($1.id, $0) }) { first, _ in first }
    }

    func write(_ event: RunEvent) {
        switch event {
        case .scenarioStarted(let id): board?.started(scenario: indexes[id] ?? -1)
        case .stepStarted(_, let step, _):
            board?.started(step: step)
            if !live { return }
        case .stepWaiting: if !live { return }
        case .stepFinished(_, _, _, .failed, _): board?.failedStep()
        default: break
        }
        guard let line = RunEventLines.encode(event) else { return }
        let flush = pending.withLock { state -> Data? in
            state.data.append(line)
            // At once: every event when live; the first start of the run (the parent marks when the
            // first scenario started); a scenario's end (with its events).
            var now = live
            if case .scenarioFinished = event { now = true }
            if case .scenarioStarted = event, !state.startedOne {
                state.startedOne = true
                now = true
            }
            guard now else { return nil }
            defer { state.data = Data() }
            return state.data
        }
        // The parent reads every line; when it has gone, nobody will: stop at once (its SIGTERM may never come).
        if let flush, !Terminal.write(flush, to: .standardOutput) { exit(3) }
        if case .scenarioFinished = event { board?.finishedScenario() }
    }
}

/// The scenarios standard input names: the parent's count and fingerprint of the scenarios it loaded
/// first (`#N F`, which must be this worker's too, as the indexes are into the same list: a scenario
/// renamed between the two loads keeps the count), then one index per line. Read on a thread of their
/// own: a blocking read must not hold the event loop every task runs on.
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

    init(_ loaded: [Scenario]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Scenario.self)
        scenarios = stream
        let header = Self.header(of: loaded.map(\.id)).dropLast()
        let thread = Thread { [self] in
            while let line = readLine() {
                if line.hasPrefix("#") {
                    guard line == header else {
                        let count = line.dropFirst().split(separator: " ").first ?? ""
                        self.mismatch.withLock {
                            $0 =
                                count == String(loaded.count)
                                ? "The scenario files changed while the run started (a scenario was renamed or moved)."
                                : "The scenario files changed while the run started (\(count) scenarios, now \(loaded.count))."
                        }
                        break
                    }
                } else if let index = Int(line), loaded.indices.contains(index) {
                    continuation.yield(loaded[index])
                }
            }
            continuation.finish()
        }
        thread.start()
    }

    /// Why the input was refused, if it was.
    var problem: String? { mismatch.withLock { $0 } }
}
