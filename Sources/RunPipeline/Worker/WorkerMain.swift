import Diagnostics
import Foundation
import ObjectManager
import Scenarios
package import Steps
import StubServer
import Synchronization

/// One worker process of a run (``WorkerPool``): what `scenario-run worker` (hidden) runs.
///
/// Started before the parent loads (the first one as the parent starts: ``WorkerLaunchpad``), it reads the run the
/// parent resolved (``WorkerRun``: the paths, its folder and the settings, options and `scenario-run.yml` already
/// merged) from its channel, starts its own stub server, then reads the scenarios the parent hands it, one a line
/// (``ScenarioInput``), builds each shortly before it runs (the parent has loaded and checked every file: the worker
/// reads only each scenario's bytes), and runs each (one run, scenarios as they arrive) between the default set-up and
/// tear-down, writing its run events to standard output as JSON lines and where it is to its slot of the parent's
/// ``ProgressBoard``. Ends at the end of its input. Ctrl-C and a closed terminal are the parent's to handle: the worker
/// ignores SIGINT and SIGHUP; SIGTERM cancels gracefully (the current scenario's tear-down runs), a second SIGTERM
/// exits at once. A step it cannot stop ends it, with status ``WorkerExit.abandonedStepStatus``, once its scenario is
/// reported.
package enum WorkerMain {
    /// A worker's whole command line: the executable started with this one argument is a worker. It is
    /// recognised before the command line is parsed (``isWorker(_:)``): parsing costs a worker a quarter
    /// of its start, and everything a worker needs comes on its channel (``WorkerRun``).
    package static let command = "worker"

    /// Whether `arguments` (without the executable's name) start a worker.
    package static func isWorker(_ arguments: [String]) -> Bool {
        arguments == [command]
    }

    /// Runs the worker for `app` on its slot of the parent's board (both in the run it reads). A worker
    /// that ran its run says so on its channel (`["end",0]`) and ends at once; otherwise this returns the
    /// process's exit status (2: the run could not be read, or a scenario the parent named is not in its
    /// file any more; 1: it could not start its stub server or its runner).
    package static func run(app: AppUnderTest) async -> Int32 {
        do {
            return try await runThrowing(app: app)
        } catch {
            Terminal.printError("error: \(error)")
            return 1
        }
    }

    private static func runThrowing(app: AppUnderTest) async throws -> Int32 {
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        // First of all, before any app code runs: the channel to the parent becomes this process's own,
        // and what the app prints goes to the scenario's log, never into the channel.
        let channel = WorkerChannel.takeOver()
        let capture = OutputCapture()
        let environment = ProcessInfo.processInfo.environment
        // The run, resolved once by the parent: no option is parsed and no setting merged again here.
        let run: WorkerRun
        let afterRun: Data
        // While the run is on the way (the parent parses its command line and reads its settings): the
        // app's step registry (no app code runs: that waits for the run's folder) and a first stub server
        // start, of a server of its own. A registry that cannot be made fails again below.
        let registry = try? BuiltInSteps.registry(adding: app.steps)
        let warmUp = WorkerChannel.hasInput(channel) ? nil : await StubServer.startedForWarmUp()
        do {
            (run, afterRun) = try WorkerRun.read(from: channel)
        } catch {
            Terminal.printError("error: \(error)")
            return 2
        }
        // Started before the parent entered its project's folder, perhaps: the run's folder is the one.
        guard FileManager.default.changeCurrentDirectoryPath(run.directory) else {
            Terminal.printError("error: The worker cannot enter '\(run.directory)'.")
            return 2
        }
        let directory = URL(fileURLWithPath: run.directory)
        let suite: ScenarioSuite
        do {
            suite = try ScenarioSuite(app: app, settings: run.settings, directory: directory, registry: registry)
        } catch {
            // The parent loads the same files and reports their errors.
            return 2
        }
        // No file is loaded here: the parent has loaded and checked them; each scenario is built when it
        // is handed over (``ScenarioInput``, on a thread of its own from here on), while the stub server
        // starts.
        let input = ScenarioInput(
            building: ScenarioBuilder(registry: suite.registry, buildContext: suite.buildContext),
            channel: channel,
            after: afterRun
        )
        let server = suite.makeServer()
        _ = try await server.start()
        if let warmUp {
            // While the first scenario is on the way (the parent is loading the scenario files): a first
            // request, to the warm-up server through the object manager's transport, pays for the first use
            // of the client's HTTP machinery and of the server's request path, which the first scenario
            // would pay (about 4 ms, release). Its server is stopped beside the run.
            if input.read == 0 { await NIOHTTPTransport.warmUp(warmUp.url) }
            Task { await warmUp.server.stop() }
        }
        let runner: ScenarioRunner
        do {
            runner = try suite.makeRunner(server: server, environment: environment) {
                // The step's action cannot be stopped; its scenario is reported (the writer has flushed it).
                _exit(WorkerExit.abandonedStepStatus)
            }
        } catch is DiagnosticList {
            // The project's own errors (an unknown default step): the parent reads the same settings and
            // reports them, once; this process says nothing.
            return 2
        }
        // SIGTERM cancels the run: the current scenario's tear-down runs, nothing more is taken.
        let interrupts = InterruptHandler(signals: [SIGTERM]) { runner.cancel() }
        let progress = try run.board.map { try ProgressBoard(path: $0, slot: run.slot) }
        let output = EventLineWriter(
            channel: channel,
            live: run.liveEvents,
            board: progress,
            starting: { input.start($0) },
            finished: { input.finish($0) },
            unfinished: { input.handedUnfinished },
            stepTimeouts: { runner.stepTimeouts(of: $0) },
            capture: capture
        )
        await runner.run(arriving: input.scenarios) { event in output.write(event) }
        if let problem = input.problem {
            Terminal.printError("error: \(problem)")
            return 2
        }
        interrupts.cancel()
        // Ends here, said first: the parent need not wait for the kernel to take this process down to know
        // how it ended, and nothing runs after it said so (no atexit handler, no deinit) that could end it
        // otherwise. The stub server is left running: stopping it gracefully could hang this process with
        // everything reported (DECISIONS 168).
        output.end(status: 0)
        _exit(0)
    }
}
