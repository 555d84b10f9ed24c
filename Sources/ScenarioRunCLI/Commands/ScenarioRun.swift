import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
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
/// await ScenarioRun.main(app: MyApp.appUnderTest)
/// ```
///
/// Scenarios run in worker processes started from the running executable, so they drive the same app:
/// one by default, `--jobs N` (default 1) for up to N at once — fewer when there are fewer scenarios,
/// more than four per core, or more than the open-file limit holds, with a `note:` line saying so; the
/// live runner uses one. `--in-process` and `KIF_SKIP_TEAR_DOWN` run them in this process instead.
public enum ScenarioRun {
    /// Parses the process's arguments, runs the subcommand against `app`, and exits: 0 every selected
    /// scenario passed, 1 one failed (or a `verify` route differed) or the run was cancelled, 2 a usage or
    /// load error (nothing ran), 4 the options selected no scenario, 130 a second Ctrl-C quit at once.
    public static func main(app: AppUnderTest) async -> Never {
        await main(app: app, arguments: Array(CommandLine.arguments.dropFirst()))
    }

    /// As ``main(app:)``, with the arguments given (without the executable's name).
    public static func main(app: AppUnderTest, arguments: [String]) async -> Never {
        // A closed pipe (`| head`, a parent that died) makes writes fail instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        // A worker of a run parses no command line: its run comes on its channel.
        let isWorker = WorkerMain.isWorker(arguments)
        // A run's first worker starts first of all, its process start beside this one's parsing and loading.
        if !isWorker, RootCommand.mayRunWorkers(arguments, environment: ProcessInfo.processInfo.environment) {
            WorkerLaunchpad.prestart()
        }
        // Every task of the run, the HTTP client and the stub server share NIO's singleton event loop: a
        // step, its request and the server's answer run on one thread instead of hopping between Swift's
        // cooperative pool and NIO's loops (see DECISIONS.md). SCENARIO_RUN_EVENT_LOOPS asks for more loops.
        let loops = ProcessInfo.processInfo.environment["SCENARIO_RUN_EVENT_LOOPS"].flatMap(Int.init) ?? 1
        NIOSingletons.groupLoopCountSuggestion = max(1, min(loops, 64))
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        if isWorker {
            let status = await WorkerMain.run(app: app)
            AppExitGuard.disarm()
            exit(status)
        }
        let code = await RootCommand.$app.withValue(app) {
            await RootCommand.execute(arguments)
        }
        AppExitGuard.disarm()
        exit(code)
    }
}
