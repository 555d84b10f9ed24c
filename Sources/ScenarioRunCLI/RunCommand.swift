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
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run scenario files or folders (the default).")

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

    @Option(help: ArgumentHelp("Also write a JUnit XML report.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Default step timeout (default 10).", valueName: "SECONDS"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Headless: run N scenarios at once, in this process and N - 1 workers (default 1).", valueName: "N"))
    var jobs: Int = 1

    @OptionGroup var project: ProjectOptions

    @Flag(help: "List the scenarios and their steps; run nothing.")
    var list = false

    @Flag(help: "Print every step, not only those of failing scenarios.")
    var verbose = false

    @Flag(name: .customLong("exit"), help: "On a terminal: quit the live runner when the run finishes.")
    var exitWhenFinished = false

    func validate() throws {
        if let timeout, !(timeout > 0) || Duration(checkedSeconds: timeout) == nil {
            throw ValidationError("--timeout takes a number of seconds greater than 0 and at most 86400 (a day).")
        }
        if let junit, let problem = FileWriteError.problem(writing: junit) {
            throw ValidationError("--junit: \(problem)")
        }
        if jobs < 1 { throw ValidationError("--jobs takes how many scenarios run at once, 1 or more.") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var settings: RunSettings
        do {
            settings = try project.settings(environment: environment)
        } catch {
            throw Terminal.failLoading(error)
        }
        if failFast { settings.failFast = true }
        if let timeout, let duration = Duration(checkedSeconds: timeout) { settings.stepTimeout = duration }
        if let filter { settings.filter = filter }

        let live = !ci && Terminal.stdoutIsTTY
        if jobs > 1, settings.skipTearDown {
            Terminal.printError("note: KIF_SKIP_TEAR_DOWN runs one scenario at a time, so that the last one's store can be kept.")
        }
        // Workers start now, so that they load the scenario files while this process does.
        let parallel =
            jobs > 1 && !live && !list && !settings.skipTearDown
            ? ParallelRun(
                jobs: jobs,
                arguments: paths + (project.fixtures.map { ["--fixtures", $0] } ?? [])
                    + (timeout.map { ["--timeout", String($0)] } ?? [])
            ) : nil

        let suite: ScenarioSuite
        let loaded: [Scenario]
        let server: StubServer
        let serverStart: Result<Void, any Error>?
        do {
            suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            server = suite.makeServer()
            (loaded, serverStart) = try await Startup.load(suite, paths: paths, startingMeanwhile: list ? nil : server)
        } catch {
            parallel?.abandon()
            throw Terminal.failLoading(error)
        }

        let failureState = FailureState(projectDirectory: directory)
        let selection: ScenarioSelection
        do {
            selection = try ScenarioSelection(
                filter: settings.filter,
                tags: Set(tag),
                rerunFailed: rerunFailed ? try failureState.load() : nil
            )
        } catch {
            parallel?.abandon()
            await server.stop()
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
        let scenarios = selection.select(loaded)

        if list {
            let runner = try suite.makeRunner(server: server)
            print(ScenarioListing.text(runner.plan(scenarios)), terminator: "")
            return
        }
        if scenarios.isEmpty {
            Terminal.printError("No scenario matches the selection (\(loaded.count) loaded).")
        }

        let output = StandardOutput()
        let reporter = PlainReporter(verbose: verbose, colors: Terminal.colors(environment: environment)) { output.write($0) }
        let junitReporter = junit.map { _ in JUnitReporter() }
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
            parallel?.abandon()
            Terminal.printError("error: The stub server could not start: \(error)")
            throw ExitCode(2)
        }
        let runner = try suite.makeRunner(server: server, environment: environment)

        if let parallel {
            // This process runs its share on its own stub server; each worker process has one of its own.
            let summary = await parallel.run(
                scenarios,
                loaded: loaded,
                plan: runner.plan(scenarios),
                failFast: settings.failFast,
                runner: runner,
                emit: consumeHeadless
            )
            timing?.write()
            await server.stop()
            try finish(summary, junit: junitReporter, failures: failures, failureState: failureState, settings: settings, directory: directory)
            if !parallel.workerFailures.isEmpty { throw ExitCode(1) }
            return
        }

        let summary: RunSummary
        if live {
            // The live runner; the summary is printed after the terminal is restored.
            let outcome = await TUIRun.run(
                scenarios,
                runner: runner,
                exitWhenFinished: exitWhenFinished,
                skipTearDown: settings.skipTearDown,
                environment: environment
            )
            outcome.events.forEach(consume)
            summary = outcome.summary
        } else {
            let interrupts = InterruptHandler(onFirst: {
                Terminal.printError("\nCancelling: the current scenario's tear-down runs, the rest are skipped (Ctrl-C again to quit now).")
                runner.cancel()
            })
            summary = await runner.run(scenarios, onEvent: consumeHeadless)
            interrupts.cancel()
            timing?.write()
        }

        await server.stop()
        try finish(summary, junit: junitReporter, failures: failures, failureState: failureState, settings: settings, directory: directory)
    }

    /// What every run ends with: the JUnit report, the failures for `--rerun-failed`, the kept store
    /// (KIF_SKIP_TEAR_DOWN), and the exit status.
    private func finish(
        _ summary: RunSummary,
        junit junitReporter: JUnitReporter?,
        failures: FailureCollector,
        failureState: FailureState,
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
        try? failureState.save(failures.names)
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

/// Remembers the names of failing scenarios for `--rerun-failed`.
final class FailureCollector: Sendable {
    private let failed = Mutex<Set<String>>([])

    func handle(_ event: RunEvent) {
        if case .scenarioFinished(let id, let outcome, _) = event, case .failed = outcome {
            failed.withLock { _ = $0.insert(id.name) }
        }
    }

    var names: Set<String> { failed.withLock { $0 } }
}
