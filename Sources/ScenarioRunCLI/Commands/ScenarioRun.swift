import ArgumentParser
import Foundation
import RunPipeline
public import Steps

/// The whole `scenario-run` command line for one app: run (the live runner on a terminal, `--ci`
/// headless, `--jobs` workers), `check`, `serve`, `KIF_SKIP_TEAR_DOWN` and the kept store.
///
/// An app's test executable is one line of `main.swift`:
///
/// ```swift
/// import MyApp
/// import ScenarioRunCLI
///
/// ScenarioRun.run(app: MyApp.appUnderTest)
/// ```
///
/// Scenarios run in worker processes of the running executable, so they drive the same app (the first
/// one this process forked as it starts, the others started as `scenario-run worker`):
/// one by default, `--jobs N` (default 1) for up to N at once — fewer when there are fewer scenarios,
/// more than four per core, or more than the open-file limit holds, with a `note:` line saying so; the
/// live runner uses one. `--in-process` and `KIF_SKIP_TEAR_DOWN` run them in this process instead.
public enum ScenarioRun {
    /// Parses the process's arguments, runs the subcommand against `app`, and exits: 0 every selected
    /// scenario passed, 1 one failed (or a `verify` route differed) or the run was cancelled, 2 a usage or
    /// load error (nothing ran), 4 the options selected no scenario, 130 a second Ctrl-C quit at once.
    ///
    /// Called at the top of `main.swift`, without `await` and before anything else starts a thread: a
    /// run's first worker is then this process forked as it starts, so a short run does not wait for a
    /// second copy of the executable to load (about 15 ms). A `main.swift` that awaits something first
    /// calls ``main(app:)`` instead. Called on another thread than the main one, it says so and exits
    /// with status 2.
    public static func run(app: AppUnderTest) -> Never {
        run(app: app, arguments: Array(CommandLine.arguments.dropFirst()))
    }

    /// As ``run(app:)``, with the arguments given (without the executable's name).
    public static func run(app: AppUnderTest, arguments: [String]) -> Never {
        // Elsewhere (an asynchronous main.swift runs its top level on a thread of Dispatch's), this thread
        // would have to be held until the exit, and with it the main actor's queue.
        guard Thread.isMainThread else {
            Terminal.printError(
                "error: ScenarioRun.run(app:) must be called on the main thread, at the top of main.swift; "
                    + "a main.swift that awaits something calls `await ScenarioRun.main(app:)`."
            )
            exit(2)
        }
        let role = start(arguments, forking: true)
        Task {
            await finish(app: app, arguments: arguments, role: role)
        }
        // The main thread serves the main queue (the main actor), as it does under an async `main.swift`.
        dispatchMain()
    }

    /// As ``run(app:)``, from an asynchronous `main.swift` (one that awaits something first): the run's
    /// first worker is spawned rather than forked, the process having threads by then.
    public static func main(app: AppUnderTest) async -> Never {
        await main(app: app, arguments: Array(CommandLine.arguments.dropFirst()))
    }

    /// As ``main(app:)``, with the arguments given (without the executable's name).
    public static func main(app: AppUnderTest, arguments: [String]) async -> Never {
        let role = start(arguments, forking: false)
        await finish(app: app, arguments: arguments, role: role)
    }

    /// Whether this process runs a command or is a worker of a run (one started as `scenario-run worker`,
    /// or this process forked as the run's first worker), with NIO's event loop installed.
    private static func start(_ arguments: [String], forking: Bool) -> WorkerLaunchpad.Side {
        // A closed pipe (`| head`, a parent that died) makes writes fail instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        // A worker of a run parses no command line: its run comes on its channel. A run's workers start
        // first of all, beside this process's parsing and loading.
        var role = WorkerLaunchpad.Side.command
        if WorkerMain.isWorker(arguments) {
            role = .worker
        } else if RootCommand.mayRunWorkers(arguments, environment: ProcessInfo.processInfo.environment) {
            role = WorkerLaunchpad.prestart(forking: forking, workers: RootCommand.jobsAsked(arguments))
        }
        // Every task of the run, the HTTP client and the stub server share NIO's singleton event loop: a
        // step, its request and the server's answer run on one thread instead of hopping between Swift's
        // cooperative pool and NIO's loops (see DECISIONS.md). SCENARIO_RUN_EVENT_LOOPS asks for more loops.
        let loops = ProcessInfo.processInfo.environment["SCENARIO_RUN_EVENT_LOOPS"].flatMap(Int.init) ?? 1
        EventLoopExecutor.install(loops: loops)
        return role
    }

    /// Runs the command, or the worker, and exits with its status.
    private static func finish(app: AppUnderTest, arguments: [String], role: WorkerLaunchpad.Side) async -> Never {
        let code: Int32
        switch role {
        case .worker:
            code = await WorkerMain.run(app: app)
        case .command:
            code = await RootCommand.$app.withValue(app) {
                await RootCommand.execute(arguments)
            }
        }
        AppExitGuard.disarm()
        exit(code)
    }
}
