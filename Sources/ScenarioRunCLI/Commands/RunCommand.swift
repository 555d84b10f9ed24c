import ArgumentParser
import Diagnostics
import Foundation
import ObjectManager
import RunPipeline
import Scenarios
import Steps
import StubServer
import TUIRunner

/// `scenario-run [PATH ...]` — run scenario files or folders (default: Scenarios/).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files or folders (the default)."
    )

    // Each option's help is its whole reference: the abstract is what `--help` leads with, the discussion
    // the rest; docs/command-line.md is made from them (`scenario-run reference command-line`).

    @Argument(
        help: ArgumentHelp(
            "Scenario files or folders (default: Scenarios/); PATH:LINE runs the scenario or example row at that line.",
            discussion: """
                Folders are searched recursively for `*.yml`/`*.yaml` (the default folder is `scenarios:` in \
                `scenario-run.yml`). Any line of a scenario selects it in `PATH:LINE`; an example row's line selects \
                that row, any other line of an outline all its rows. `PATH:LINE:LINE` names several lines; several \
                arguments may name lines. A failure prints its location in this form (`at Scenarios/reviews.yml:21`, \
                and for a row `, example row Scenarios/reviews.yml:16`), to paste back as is. A line before a file's \
                first scenario or past its end is a usage error naming the lines scenarios start at.
                """,
            valueName: "PATH"
        )
    )
    var paths: [String] = []

    @Flag(help: "Headless: plain progress lines (also the default when stdout is not a terminal).")
    var ci = false

    @Option(
        help: ArgumentHelp(
            "Only scenarios whose name matches (also KIF_SCENARIO_FILTER).",
            discussion: """
                A regular expression that must match part of the name, ignoring case as the live runner's `/` \
                filter does: `--filter posting` selects `Posting a review`.
                """,
            valueName: "REGEX"
        )
    )
    var filter: String?

    @Option(
        help: ArgumentHelp(
            "Only scenarios matching a tag expression, like '@smoke and not (@slow or @flaky)'; repeated: any of them.",
            discussion: "See 'Tag expressions' in docs/command-line.md.",
            valueName: "EXPR"
        )
    )
    var tag: [String] = []

    @Flag(
        help: ArgumentHelp(
            "When the options select no scenario, exit 0 instead of 4.",
            discussion: "The reason is still said on stderr."
        )
    )
    var allowEmpty = false

    @Flag(
        help: ArgumentHelp(
            """
            Run again when files change: a scenario file's scenarios when it is saved, everything when \
            scenario-run.yml, server.yml or a fixture is (not the app's Swift code, which needs a build). \
            With --ci, until Ctrl-C.
            """,
            discussion: "See '--watch' in docs/command-line.md."
        )
    )
    var watch = false

    @Flag(
        help: ArgumentHelp(
            "Stop after the first failing scenario (also KIF_EXIT_ON_FAILURE).",
            discussion: "The scenarios not run are reported skipped."
        )
    )
    var failFast = false

    @Flag(
        help: ArgumentHelp(
            "Only the scenarios that failed in the previous run.",
            discussion: """
                Read from `.scenario-run/last-failed.json`, by file and name: a scenario of the same name in \
                another file is not run again; rows by their names.
                """
        )
    )
    var rerunFailed = false

    @Option(
        name: .customLong("shuffle"),
        help: ArgumentHelp(
            "Random order, the same for the same SEED (optional).",
            discussion: "The order is across files; the seed is printed first, to run the same order again.",
            valueName: "SEED"
        )
    )
    var shuffleValue: String?

    @Option(
        help: ArgumentHelp(
            "Run only part K of N (1-based); without it, the CI's parallel-job variables pick the part.",
            discussion: """
                Parts are cut by a stable hash of file and name, before any other option selects. An empty part \
                (more shards than scenarios) exits 0 and says so.
                """,
            valueName: "K/N"
        )
    )
    var shard: String?

    @Option(
        help: ArgumentHelp("Balance the shard by the testcase times of an earlier JUnit report.", valueName: "FILE")
    )
    var shardTimings: String?

    @Option(
        help: ArgumentHelp(
            "Also write a JUnit XML report.",
            discussion: "One `testsuite` per file, one `testcase` per scenario or example row.",
            valueName: "FILE"
        )
    )
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Also write the run as one self-contained HTML page, while it runs (docs/html-report.md).",
            discussion: """
                Overrides `html report:` in `scenario-run.yml`. The summary, every scenario with its steps, failure \
                and source line, its requests and what the stub server answered, the timeline per worker and each \
                scenario's last runs (`.scenario-run/history.jsonl`). Written as scenarios finish, so a cancelled \
                or killed run leaves a page that says how far it got.
                """,
            valueName: "FILE"
        )
    )
    var html: String?

    @Option(
        help: ArgumentHelp(
            "Also write the run's events as JSON lines while it runs, for tools (docs/events.md).",
            discussion: "The same lines from every executor.",
            valueName: "FILE"
        )
    )
    var events: String?

    @Option(
        help: ArgumentHelp(
            "Forward each request no route answers to URL, and add what it answered to the fixtures and server.yml.",
            discussion: """
                For filling the gaps from a real server (staging): the scenarios run in this process as usual; a \
                request that no scenario stub, `server.yml` route or fixture file answers goes on to URL and its \
                answer comes back to the app; when the run ends, each distinct one is written as a fixture file \
                and a route, as `record` writes them, and the run says what it added. The next run plays them \
                back. With `--redact`, `--redact-json`, `--redact-query` and `--overwrite`; not with `--jobs`, `--watch` or \
                `--list`. See docs/record.md.
                """,
            valueName: "URL"
        )
    )
    var record: String?

    @OptionGroup var recording: RecordingOptions

    @Option(
        help: ArgumentHelp(
            "Default step timeout (default 10).",
            discussion: """
                A step's own `timeout:` wins. A step that blocks its thread (a synchronous call that hangs) cannot \
                be stopped by it: with workers its process is ended at the timeout plus the 1 s grace period (and a \
                second for the worker to report it itself), failing `Step 'X' blocked its thread for longer than its \
                10 s timeout …`; with `--in-process` it fails when it returns, `Step 'X' took 30.0 s, past its 10 s \
                timeout; it blocked its thread …`.
                """,
            valueName: "SECONDS"
        )
    )
    var timeout: Double?

    // argument-parser says the default: `(default: 1)`.
    @Option(help: ArgumentHelp("Run N scenarios at once, each in a worker process.", valueName: "N"))
    var jobs: Int = 1

    @Option(
        help: ArgumentHelp(
            "End a scenario still running after this long, with its process (default 120).",
            discussion: "Worker processes only: no effect with `--in-process` or `KIF_SKIP_TEAR_DOWN`.",
            valueName: "SECONDS"
        )
    )
    var scenarioTimeout: Double?

    @Flag(
        help: ArgumentHelp(
            "Run scenarios in this process, not in a worker: faster, but a crash or a hang in a scenario ends the run.",
            discussion: """
                App code that calls `exit()` fails its scenario (`App code called exit(0) during step 'X'.`), the \
                rest are reported skipped, the summary and JUnit are written, exit 1. Not with `--jobs` above 1.
                """
        )
    )
    var inProcess = false

    @Option(
        help: ArgumentHelp(
            "Run each selected scenario N times in a row; any failing repetition fails it.",
            discussion: """
                At most 10,000. The scenario's line says `15 repetitions`, or `failed on repetition 7 of 15` (and \
                the JUnit failure's message `Failed on repetition 7 of 15: …`).
                """,
            valueName: "N"
        )
    )
    var `repeat`: Int = 1

    @Option(
        help: ArgumentHelp(
            "Re-run a failing scenario up to N more times; one that then passes is flaky.",
            discussion: "At most 100. The scenario's line says how many tries it took (`3 tries`).",
            valueName: "N"
        )
    )
    var retries: Int = 0

    @OptionGroup var project: ProjectOptions

    @Flag(
        help: ArgumentHelp(
            "List the scenarios and their steps; run nothing.",
            discussion: "Rows of outlines included; takes the same paths, `PATH:LINE` and options. Not with `--watch`."
        )
    )
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
        for expression in tag {
            do {
                _ = try TagExpression(parsing: expression)
            } catch {
                throw ValidationError(error.description)
            }
        }
        if let junit, let problem = FileWriteError.problem(writing: project.resolved(junit)) {
            throw ValidationError("--junit: \(problem)")
        }
        if let events, let problem = FileWriteError.problem(writing: project.resolved(events)) {
            throw ValidationError("--events: \(problem)")
        }
        if let html, let problem = FileWriteError.problem(writing: project.resolved(html)) {
            throw ValidationError("--html: \(problem)")
        }
        if !(1...1_000_000).contains(jobs) {
            throw ValidationError("--jobs takes how many scenarios run at once, from 1 to 1,000,000.")
        }
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
        if watch, list { throw ValidationError("--watch runs scenarios again as files change; --list runs none.") }
        if let record {
            try ProjectOptions.validateTarget(record, option: "--record")
            if jobs > 1 {
                throw ValidationError("--record runs the scenarios in this process, one at a time; leave out --jobs.")
            }
            if watch { throw ValidationError("--record writes what it recorded when the run ends; leave out --watch.") }
            if list { throw ValidationError("--record forwards the requests of a run; --list runs nothing.") }
        } else if recording.isGiven {
            throw ValidationError(
                "--redact, --redact-json, --redact-query and --overwrite say what --record URL writes; give --record."
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
        try project.enter()
        let environment = ProcessInfo.processInfo.environment
        let lines = ScenarioLines(arguments: paths)
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let terminal = !ci && Terminal.stdoutIsTTY
        let terminalProblem = terminal ? TerminalRunner.unavailableReason(environment: environment) : nil
        // Rather than ncurses' "Error opening terminal" and nothing run.
        if let terminalProblem { Terminal.printError("note: \(terminalProblem): running headless, as with --ci.") }
        let live = terminal && terminalProblem == nil
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

        let settings = try runSettings(environment: environment)
        let part = try shardPart(environment: environment)
        let shuffle = shuffleValue.flatMap(ShuffleArgument.shuffle)

        if jobs > 1, settings.skipTearDown {
            Terminal.printError(
                "note: KIF_SKIP_TEAR_DOWN runs one scenario at a time, so that the last one's store can be kept."
            )
        }
        let openFiles = OpenFiles.raiseLimit()
        if openFiles < OpenFiles.least {
            // Fewer than the stub server and the client need even in this process: NIO would trap.
            Terminal.printError(
                "error: ulimit -n is \(openFiles); a run needs at least \(OpenFiles.least) open files "
                    + "(\(OpenFiles.base + OpenFiles.perWorker) for a worker process)."
            )
            throw ExitCode(2)
        }
        let pool = workerPool(settings: settings, live: live, openFiles: openFiles)

        let suite: ScenarioSuite
        let loaded: [Scenario]
        let server: StubServer
        let serverStart: Result<Void, any Error>?
        // Reads server.yml for the routes it will add, before anything is forwarded.
        let recording = try record.map {
            try Recording(
                target: $0,
                options: self.recording,
                settings: settings,
                directory: directory,
                environment: environment
            )
        }
        do {
            suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            server = suite.makeServer(forwarding: recording?.forwarding(scope: .unmatched))
            // This process runs scenarios itself only when no worker does; with workers it keeps each step's
            // description (the workers build their own).
            (loaded, serverStart) = try await Startup.load(
                suite,
                paths: lines.paths,
                keepingActions: pool == nil,
                startingMeanwhile: list || pool != nil ? nil : server
            )
        } catch {
            pool?.abandon()
            throw Terminal.failLoading(error)
        }

        let failureState = FailureState(projectDirectory: directory)
        let selection: ScenarioSelection
        var previousFailures: Set<ScenarioID> = []
        do {
            do {
                previousFailures = try failureState.load()
            } catch {
                // Only --rerun-failed needs the file; any other run replaces it.
                if rerunFailed { throw error }
                Terminal.printError("warning: \(error)")
            }
            selection = try makeSelection(
                of: loaded,
                suite: suite,
                lines: lines,
                previousFailures: previousFailures,
                part: part,
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
            do {
                try endEmpty(
                    selection,
                    loaded: loaded,
                    part: part,
                    lineArguments: paths.filter { !lines.wholePaths.contains($0) }
                )
            } catch {
                pool?.abandon()
                await server.stop()
                throw error
            }
        }
        if pool != nil, !live,
            let note = WorkerPool.capNote(jobs: jobs, scenarios: scenarios.count, openFiles: openFiles)
        {
            Terminal.printError(note)
        }

        // One record of the run for the plain and JUnit reporters, each event applied to it once.
        let runRecord = SharedRunRecord()
        let reporter = PlainReporter(
            verbose: verbose,
            colors: Terminal.colors(environment: environment),
            repetitions: `repeat`,
            record: runRecord
        ) { output.write($0) }
        let junitReporter = junit.map { _ in
            JUnitReporter(properties: selection.reportProperties, repetitions: `repeat`, record: runRecord)
        }
        let state = StateCollector()
        let eventStream: EventStreamWriter?
        do {
            eventStream = try events.map { try EventStreamWriter(path: $0) }
        } catch {
            Terminal.printError("error: --events: \(error)")
            throw ExitCode(2)
        }
        let htmlReport: HTMLReportWriter?
        do {
            htmlReport = try settings.htmlReport.map { path in
                try HTMLReportWriter(
                    path: path,
                    header: HTMLReportWriter.Header(
                        commandLine: Self.commandLine(),
                        seed: shuffle?.seed,
                        shard: part?.description,
                        history: RunHistory(projectDirectory: directory).load(),
                        repetitions: `repeat`
                    )
                )
            }
        } catch {
            Terminal.printError("error: \(html != nil ? "--html" : "html report"): \(error)")
            throw ExitCode(2)
        }
        let consume: @Sendable (RunEvent) -> Void = { event in
            runRecord.apply(event)
            reporter.handle(event)
            junitReporter?.handle(event)
            runRecord.handled(event)
            htmlReport?.handle(event)
            state.handle(event)
        }
        // Headless runs also mark when the first scenario started and the last one finished, for the
        // benchmark harness.
        let timing = environment["BENCH_TIMING_FILE"].map(TimingMarks.init)
        let consumeHeadless: @Sendable (RunEvent) -> Void = { event in
            eventStream?.handle(event)
            consume(event)
            timing?.handle(event)
        }

        if case .failure(let error)? = serverStart {
            Terminal.printError("error: The stub server could not start: \(error)")
            throw ExitCode(2)
        }
        let runner = try suite.makeRunner(server: server, environment: environment)
        // What a run reads of the project; `--watch` replaces it when files change.
        let session = WatchSession(
            WatchSession.Current(suite: suite, loaded: loaded, runner: runner, server: server, selection: selection)
        ) { [previousFailures] current, everything in
            try await self.reloaded(
                current,
                everything: everything,
                lines: lines,
                previousFailures: previousFailures,
                part: part,
                shuffle: shuffle,
                environment: environment,
                inProcess: pool == nil
            )
        }
        let finish: @Sendable (RunSummary) throws -> Void = { [previousFailures] summary in
            // First, so that a report that cannot be written does not lose what was recorded.
            let recorded = recording.map { Self.write($0, output: output) } ?? true
            try self.finish(
                summary,
                junit: junitReporter,
                events: eventStream,
                html: htmlReport,
                pool: pool,
                state: state,
                failureState: failureState,
                previousFailures: previousFailures,
                settings: settings,
                directory: directory
            )
            if !recorded { throw ExitCode(1) }
        }

        // Interrupted while loading: nothing runs, and the report says so.
        if cancellation.isCancelled {
            pool?.abandon()
            // The stub server is left running, as at the end of any run (DECISIONS 168).
            try finish(RunEvents.skipping(scenarios, plan: runner.plan(scenarios), emit: consumeHeadless))
            return
        }

        /// Where the selections run: the workers, or this process.
        let executor: any RunExecutor = pool ?? InProcessExecutor { session.state.runner }
        let execute: @Sendable ([Scenario], @escaping @Sendable (RunEvent) -> Void) async -> RunSummary = {
            selected,
            given in
            // Headless, the stream is written with the other reports; the live runner's reports are written
            // when it ends, but the stream is for following the run: written as the events come.
            var emit = given
            if live, let eventStream {
                emit = { event in
                    eventStream.handle(event)
                    given(event)
                }
            }
            let current = session.state
            return await executor.run(selected, plan: current.runner.plan(selected), emit: emit)
        }
        let cancelRun: @Sendable () -> Void = { executor.cancel() }

        let summary: RunSummary
        if live, !scenarios.isEmpty {
            // The summary is printed after the terminal is restored.
            let outcome = await TUIRun.run(
                {
                    let current = session.state  // one reading: a reload between two would mix them
                    return current.selection.select(current.loaded)
                },
                execute: execute,
                watch: watch ? { update in watchLive(session, environment: environment, update: update) } : nil,
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
            // In this process, app code that calls exit() must not end the run as a success.
            let exitGuard =
                pool == nil
                ? AppExitGuard(report: consume) { summary in try? finish(summary) } : nil
            exitGuard?.arm()
            let emit: @Sendable (RunEvent) -> Void
            if let exitGuard {
                emit = { event in
                    exitGuard.handle(event)
                    consumeHeadless(event)
                }
            } else {
                emit = consumeHeadless
            }
            var last = await execute(scenarios, emit)
            timing?.write()
            if watch, !cancellation.isCancelled {
                last = await watchHeadless(
                    session,
                    last: last,
                    environment: environment,
                    cancellation: cancellation,
                    cancelRun: cancelRun,
                    output: output
                ) { await execute($0, emit) }
            }
            summary = last
        }

        if let recording {
            // What a recording forwards ends with its server: requests in flight are recorded first.
            await session.state.server.stop()
            await recording.shutdown()
        }
        // Otherwise the stub server is left running: the process ends here, and its sockets with it.
        // Stopping it gracefully could hang the event loop every task runs on before the reports are
        // written (DECISIONS 168).
        AppExitGuard.disarm()
        try finish(summary)
        if let pool, !pool.workerFailures.isEmpty { throw ExitCode(1) }
    }
}
