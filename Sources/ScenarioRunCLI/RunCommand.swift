import ArgumentParser
import Diagnostics
import Dispatch
import Foundation
import ObjectManager
import Scenarios
import Steps
import StubServer
import Synchronization

/// `scenario-run [PATH ...]` — run scenario files or folders (default: Scenarios/).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files or folders (the default)."
    )

    @Argument(help: ArgumentHelp("Scenario files or folders (default: Scenarios/).", valueName: "PATH"))
    var paths: [String] = []

    @Flag(help: "Headless: plain progress lines (also the default when stdout is not a terminal).")
    var ci = false

    @Option(help: ArgumentHelp("Only scenarios whose name matches (also KIF_SCENARIO_FILTER).", valueName: "REGEX"))
    var filter: String?

    @Option(help: ArgumentHelp("Only scenarios with this tag (repeatable).", valueName: "TAG"))
    var tag: [String] = []

    @Flag(help: "Stop after the first failing scenario (also KIF_EXIT_ON_FAILURE).")
    var failFast = false

    @Flag(help: "Only the scenarios that failed in the previous run.")
    var rerunFailed = false

    @Option(
        name: .customLong("shuffle"),
        help: ArgumentHelp("Random order, the same for the same SEED (optional).", valueName: "SEED")
    )
    var shuffleValue: String?

    @Option(
        help: ArgumentHelp(
            "Run only part K of N (1-based); without it, the CI's parallel-job variables pick the part.",
            valueName: "K/N"
        )
    )
    var shard: String?

    @Option(
        help: ArgumentHelp("Balance the shard by the testcase times of an earlier JUnit report.", valueName: "FILE")
    )
    var shardTimings: String?

    @Option(help: ArgumentHelp("Also write a JUnit XML report.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Default step timeout (default 10).", valueName: "SECONDS"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Run N scenarios at once, each in a worker process (default 1).", valueName: "N"))
    var jobs: Int = 1

    @Option(
        help: ArgumentHelp(
            "End a scenario still running after this long, with its process (default 120).",
            valueName: "SECONDS"
        )
    )
    var scenarioTimeout: Double?

    @Flag(
        help:
            "Run scenarios in this process, not in a worker: faster, but a crash or a hang in a scenario ends the run."
    )
    var inProcess = false

    @Option(
        help: ArgumentHelp(
            "Run each selected scenario N times in a row; any failing repetition fails it.",
            valueName: "N"
        )
    )
    var `repeat`: Int = 1

    @Option(
        help: ArgumentHelp(
            "Re-run a failing scenario up to N more times; one that then passes is flaky.",
            valueName: "N"
        )
    )
    var retries: Int = 0

    @OptionGroup var project: ProjectOptions

    @Flag(help: "List the scenarios and their steps; run nothing.")
    var list = false

    @Flag(help: "Print every step, not only those of failing scenarios.")
    var verbose = false

    @Flag(name: .customLong("exit"), help: "On a terminal: quit the live runner when the run finishes.")
    var exitWhenFinished = false

    static let repetitions = 1...10_000
    static let retryCounts = 0...100

    func validate() throws {
        if let timeout, !(timeout > 0) || Duration(checkedSeconds: timeout) == nil {
            throw ValidationError("--timeout takes a number of seconds greater than 0 and at most 86400 (a day).")
        }
        if let scenarioTimeout, !(scenarioTimeout > 0) || Duration(checkedSeconds: scenarioTimeout) == nil {
            throw ValidationError(
                "--scenario-timeout takes a number of seconds greater than 0 and at most 86400 (a day)."
            )
        }
        if let junit, let problem = FileWriteError.problem(writing: junit) {
            throw ValidationError("--junit: \(problem)")
        }
        if jobs < 1 { throw ValidationError("--jobs takes how many scenarios run at once, 1 or more.") }
        if inProcess, jobs > 1 { throw ValidationError("--in-process runs one scenario at a time; leave out --jobs.") }
        if !Self.repetitions.contains(`repeat`) {
            throw ValidationError(
                "--repeat takes how many times each scenario runs, from 1 to \(Self.repetitions.upperBound.groupedDigits)."
            )
        }
        if !Self.retryCounts.contains(retries) {
            throw ValidationError(
                "--retries takes how many more times a failing scenario runs, from 0 to \(Self.retryCounts.upperBound)."
            )
        }
        if let shuffleValue, ShuffleArgument.shuffle(shuffleValue) == nil {
            throw ValidationError(
                "Invalid seed '\(shuffleValue)' for --shuffle: expected an unsigned integer such as 42, or nothing for a random seed."
            )
        }
        if let shard {
            do {
                _ = try Shard(parsing: shard)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let live = !ci && Terminal.stdoutIsTTY
        // Headless, from the start: a signal while loading still ends in a complete report (everything
        // skipped). The live runner's signals are handled by ``TUIRun`` once it owns the terminal
        // (libdispatch does not take a signal back from a cancelled source, so there is one handler per
        // process).
        let cancellation = RunCancellation()
        let interrupts =
            live
            ? nil
            : InterruptHandler(
                onFirst: {
                    Terminal.printError(
                        "\nCancelling: the running scenarios' tear-down runs, the rest are skipped (Ctrl-C again to quit now)."
                    )
                    cancellation.cancel()
                }
            )
        defer { interrupts?.cancel() }

        var settings: RunSettings
        do {
            settings = try project.settings(environment: environment)
        } catch {
            throw Terminal.failLoading(error)
        }
        if failFast { settings.failFast = true }
        if let timeout, let duration = Duration(checkedSeconds: timeout) { settings.stepTimeout = duration }
        if let scenarioTimeout, let duration = Duration(checkedSeconds: scenarioTimeout) {
            settings.scenarioTimeout = duration
        }
        if let filter { settings.filter = filter }
        settings.repetitions = `repeat`
        settings.retries = retries
        // Which part of the suite this job runs: --shard, else the CI's parallel-job variables.
        var part: Shard?
        do {
            if let shard {
                part = try Shard(parsing: shard)
            } else {
                part = try Shard(environment: environment)
            }
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
        // --shard-timings balances the part by time; without a part there is nothing to balance.
        if var shard = part, let shardTimings {
            do {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: shardTimings))
                } catch {
                    throw MergeJUnitCommand.unreadable(shardTimings, error)
                }
                shard.timings = try ShardTimings(junit: data, path: shardTimings)
                part = shard
            } catch {
                Terminal.printError(MergeJUnitCommand.text(error))
                throw ExitCode(2)
            }
        }
        let shuffle = shuffleValue.flatMap(ShuffleArgument.shuffle)

        if jobs > 1, settings.skipTearDown {
            Terminal.printError(
                "note: KIF_SKIP_TEAR_DOWN runs one scenario at a time, so that the last one's store can be kept."
            )
        }
        // Scenarios run in worker processes, so that a crash or a hang ends a scenario, not the run; they
        // start now, to load the scenario files while this process does. KIF_SKIP_TEAR_DOWN runs them
        // here instead (what the last one left is this process's to keep and inspect), and so does
        // --in-process (no isolation, for speed).
        let pool =
            !list && !settings.skipTearDown && !inProcess
            ? WorkerPool(
                WorkerPool.Options(
                    // The live runner shows one running scenario at a time.
                    jobs: live ? 1 : jobs,
                    arguments: paths + (project.fixtures.map { ["--fixtures", $0] } ?? [])
                        + (timeout.map { ["--timeout", String($0)] } ?? []) + (settings.failFast ? ["--fail-fast"] : [])
                        + ["--repeat", String(`repeat`), "--retries", String(retries)],
                    liveEvents: live,
                    forwardOutput: !live,
                    scenarioTimeout: settings.scenarioTimeout
                )
            ) : nil

        let suite: ScenarioSuite
        let loaded: [Scenario]
        let server: StubServer
        let serverStart: Result<Void, any Error>?
        do {
            suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            server = suite.makeServer()
            // This process runs scenarios itself only when no worker does.
            (loaded, serverStart) = try await Startup.load(
                suite,
                paths: paths,
                startingMeanwhile: list || pool != nil ? nil : server
            )
        } catch {
            pool?.abandon()
            throw Terminal.failLoading(error)
        }

        let failureState = FailureState(projectDirectory: directory)
        let selection: ScenarioSelection
        var previousFailures: Set<String> = []
        do {
            do {
                previousFailures = try failureState.load()
            } catch {
                // Only --rerun-failed needs the file; any other run replaces it.
                if rerunFailed { throw error }
                Terminal.printError("warning: \(error)")
            }
            selection = try ScenarioSelection(
                filter: settings.filter,
                tags: Set(tag),
                rerunFailed: rerunFailed ? previousFailures : nil,
                shard: part,
                shuffle: shuffle
            )
        } catch {
            pool?.abandon()
            await server.stop()
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
        let scenarios = selection.select(loaded)
        let output = StandardOutput()
        // The first line, so that a failing order can be run again (the live runner's output starts when
        // it gives the terminal back).
        if let shuffle, list || !live { output.write(ScenarioListing.shuffleLine(shuffle)) }

        if list {
            let runner = try suite.makeRunner(server: server)
            let header = part.map {
                ScenarioListing.shardLine($0, selected: scenarios.count, of: selection.matching(loaded).count)
            }
            print((header ?? "") + ScenarioListing.text(runner.plan(scenarios)), terminator: "")
            return
        }
        if scenarios.isEmpty {
            Terminal.printError("No scenario matches the selection (\(loaded.count) loaded).")
        }

        let reporter = PlainReporter(verbose: verbose, colors: Terminal.colors(environment: environment)) {
            output.write($0)
        }
        let junitReporter = junit.map { _ in JUnitReporter(properties: selection.reportProperties) }
        let failures = FailureCollector()
        let consume: @Sendable (RunEvent) -> Void = { event in
            reporter.handle(event)
            junitReporter?.handle(event)
            failures.handle(event)
        }
        // Headless runs also mark when the first scenario started and the last one finished, for the
        // benchmark harness.
        let timing = environment["BENCH_TIMING_FILE"].map(TimingMarks.init)
        let consumeHeadless: @Sendable (RunEvent) -> Void = { event in
            consume(event)
            timing?.handle(event)
        }

        if case .failure(let error)? = serverStart {
            Terminal.printError("error: The stub server could not start: \(error)")
            throw ExitCode(2)
        }
        let runner = try suite.makeRunner(server: server, environment: environment)
        let plan = runner.plan(scenarios)
        let finish = { (summary: RunSummary) throws in
            try self.finish(
                summary,
                junit: junitReporter,
                failures: failures,
                failureState: failureState,
                previousFailures: previousFailures,
                settings: settings,
                directory: directory
            )
        }

        // Interrupted while loading: nothing runs, and the report says so.
        if cancellation.isCancelled {
            pool?.abandon()
            await server.stop()
            try finish(RunEvents.skipping(scenarios, plan: plan, emit: consumeHeadless))
            return
        }

        /// Runs a selection of `scenarios` where they run: in the workers, or in this process.
        let failFast = settings.failFast
        let execute: @Sendable ([Scenario], @escaping @Sendable (RunEvent) -> Void) async -> RunSummary = {
            selected,
            emit in
            if let pool {
                return await pool.run(
                    selected,
                    loaded: loaded,
                    plan: runner.plan(selected),
                    failFast: failFast,
                    emit: emit
                )
            }
            return await runner.run(selected, onEvent: emit)
        }
        let cancelRun: @Sendable () -> Void = {
            pool?.cancel()
            runner.cancel()
        }

        let summary: RunSummary
        if live {
            // The summary is printed after the terminal is restored.
            let outcome = await TUIRun.run(
                scenarios,
                execute: execute,
                cancel: cancelRun,
                exitWhenFinished: exitWhenFinished,
                skipTearDown: settings.skipTearDown,
                statusNote: selection.orderNote,
                environment: environment
            )
            if let shuffle { output.write(ScenarioListing.shuffleLine(shuffle)) }
            outcome.events.forEach(consume)
            summary = outcome.summary
        } else {
            cancellation.onCancel(cancelRun)
            summary = await execute(scenarios, consumeHeadless)
            timing?.write()
        }

        await server.stop()
        try finish(summary)
        if let pool, !pool.workerFailures.isEmpty { throw ExitCode(1) }
    }

    /// What every run ends with: the JUnit report, the failures for `--rerun-failed`, the kept store
    /// (KIF_SKIP_TEAR_DOWN), and the exit status.
    private func finish(
        _ summary: RunSummary,
        junit junitReporter: JUnitReporter?,
        failures: FailureCollector,
        failureState: FailureState,
        previousFailures: Set<String>,
        settings: RunSettings,
        directory: URL
    ) throws {
        var reportFailed = false
        if let junit, let junitReporter {
            do {
                try junitReporter.write(to: URL(fileURLWithPath: junit))
            } catch {
                // The run's result is not known to CI without its report: not a success.
                Terminal.printError("error: The JUnit report was not written. \(error)")
                reportFailed = true
            }
        }
        // Scenarios that did not run this time (filtered out, skipped) keep what the last run said.
        let failedNow = FailureState.merged(previous: previousFailures, ran: failures.ranNames, failed: failures.names)
        do {
            try failureState.save(failedNow)
        } catch {
            Terminal.printError("warning: The failed scenarios were not saved for --rerun-failed: \(error)")
        }
        if settings.skipTearDown {
            do {
                if let lines = try KeptStore.keep(in: directory) { print(lines.joined(separator: "\n")) }
            } catch {
                Terminal.printError("error: Could not keep the store: \(error)")
            }
        }
        if reportFailed { throw ExitCode(2) }
        if summary.failed > 0 || summary.cancelled { throw ExitCode(1) }
    }
}

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

/// Remembers the names of the scenarios that ran and of those that failed, for `--rerun-failed`.
final class FailureCollector: Sendable {
    private let seen = Mutex<(ran: Set<String>, failed: Set<String>)>(([], []))

    func handle(_ event: RunEvent) {
        guard case .scenarioFinished(let id, let outcome, _) = event else { return }
        seen.withLock { seen in
            switch outcome {
            case .passed: seen.ran.insert(id.name)
            case .failed:
                seen.ran.insert(id.name)
                seen.failed.insert(id.name)
            case .skipped: break
            }
        }
    }

    /// The names of the scenarios that failed.
    var names: Set<String> { seen.withLock { $0.failed } }
    /// The names of the scenarios that ran (passed or failed).
    var ranNames: Set<String> { seen.withLock { $0.ran } }
}

/// Whether the run was interrupted, and what to call when it is: the signal may come before there is a
/// run to cancel (while loading), or during it.
final class RunCancellation: Sendable {
    private let state = Mutex<(cancelled: Bool, onCancel: (@Sendable () -> Void)?)>((false, nil))

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            state.cancelled = true
            return state.onCancel
        }
        action?()
    }

    /// Calls `action` on cancellation — at once when the run was cancelled already.
    func onCancel(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            state.onCancel = action
            return state.cancelled
        }
        if now { action() }
    }
}

/// The events of a run cancelled before it began: every scenario skipped.
enum RunEvents {
    static func skipping(_ scenarios: [Scenario], plan: RunPlan, emit: (RunEvent) -> Void) -> RunSummary {
        emit(.runStarted(plan))
        for scenario in scenarios { emit(.scenarioFinished(scenario.id, outcome: .skipped, duration: .zero)) }
        let summary = RunSummary(passed: 0, failed: 0, skipped: scenarios.count, duration: .zero, cancelled: true)
        emit(.runFinished(summary))
        return summary
    }
}
