package import Contract
package import Diagnostics
package import Foundation
package import ObjectManager
package import Scenarios
package import StubServer

/// A project's scenarios, loaded and checked, ready to run against the app under test and a stub
/// server — what `scenario-run` and `ScenarioTesting` both use, so the two run scenarios the same way.
///
/// ```swift
/// let suite = try ScenarioSuite(app: app, settings: settings, directory: projectURL)
/// let scenarios = try suite.loadScenarios(paths: [])
/// let summary = try await suite.run(scenarios) { event in reporter.handle(event) }
/// ```
package struct ScenarioSuite: Sendable {
    package let app: AppUnderTest
    package let settings: RunSettings
    /// The folder relative paths are resolved against (the project's root).
    package let directory: URL
    package let fixtures: URL
    package let factory: TestFactory
    package let registry: StepRegistry
    /// The routes the app's configuration makes: what `check for leaks` compares the shared router with.
    package let configuredRoutes: RouteSet
    package let serverRoutes: ServerRouteTable
    package let buildContext: StepBuildContext
    /// Problems in `server.yml`, reported together with the scenario files' by `loadScenarios`.
    package let serverDiagnostics: [Diagnostic]
    /// The API's OpenAPI document (`openapi:`), when the settings name one.
    package let document: APIDocument?

    /// Loads `server.yml` from the fixture folder and builds the step registry. A bad `server.yml` is
    /// kept as `serverDiagnostics` (reported with the scenario files' errors); a missing one is an empty
    /// route table (static fixtures only).
    ///
    /// `registry`: the app's step registry (`BuiltInSteps.registry(adding: app.steps)`) when it is made
    /// already — a worker makes it while its run is on the way; made here otherwise.
    package init(
        app: AppUnderTest,
        settings: RunSettings,
        directory: URL,
        registry prepared: StepRegistry? = nil
    ) throws(DiagnosticList) {
        self.app = app
        self.settings = settings
        // As a folder (a trailing slash): relative paths resolve inside it, also when the caller built the
        // URL with `appendingPathComponent` (without one, `relativeTo:` would resolve next to it).
        let directory = URL(fileURLWithPath: directory.path, isDirectory: true)
        self.directory = directory
        self.fixtures = URL(fileURLWithPath: settings.fixtures, relativeTo: directory).standardizedFileURL
        self.factory = app.makeFactory()
        let registry: StepRegistry
        if let prepared { registry = prepared } else { registry = try BuiltInSteps.registry(adding: app.steps) }
        self.registry = registry
        let routes: RouteSet
        do {
            routes = try factory.configuredRoutes()
        } catch {
            throw DiagnosticList([
                Diagnostic(
                    location: SourceLocation(file: "<app configuration>", line: 1, column: 1),
                    message: "The app's configuration failed on a new object manager: \(error)",
                    sourceLine: nil
                )
            ])
        }
        let serverFile = fixtures.appendingPathComponent("server.yml")
        var serverRoutes = ServerRouteTable(routes: [])
        var serverDiagnostics: [Diagnostic] = []
        if FileManager.default.fileExists(atPath: serverFile.path) {
            do {
                serverRoutes = try ServerRouteTable.load(
                    contentsOf: URL(
                        fileURLWithPath: Self.displayPath(serverFile, from: directory),
                        relativeTo: directory
                    ),
                    fixtures: fixtures
                )
            } catch {
                serverDiagnostics = error.diagnostics
            }
        }
        self.document = try settings.openapi.map { path throws(DiagnosticList) in
            try APIDocument.load(path: path, directory: directory)
        }
        self.configuredRoutes = routes
        self.serverRoutes = serverRoutes
        self.serverDiagnostics = serverDiagnostics
        self.buildContext = StepBuildContext(
            fixturesDirectory: fixtures,
            vocabulary: TestEnvironment.vocabulary(factory: factory, routes: routes)
        )
    }

    /// Reads `scenario-run.yml` at `url` for `app`, every error of the file in one round: its own and, when
    /// it has some, those of the default steps it names (an unknown name, a step that needs arguments),
    /// each at its line and column. A file with no problem of its own has its default steps checked with
    /// the scenario files, by ``loadScenarios(paths:)``.
    package static func loadSettings(
        contentsOf url: URL,
        app: AppUnderTest,
        directory: URL
    ) throws(DiagnosticList) -> RunSettings {
        let (settings, problems) = try RunSettings.read(contentsOf: url)
        guard !problems.isEmpty else { return settings }
        // The settings that could be read name the fixtures and the default steps to check.
        let suite = try? ScenarioSuite(app: app, settings: settings, directory: directory)
        throw DiagnosticList(problems + (suite?.defaultStepProblems ?? []))
    }

    /// What is wrong with the default set-up and tear-down steps the settings name (nothing, usually).
    var defaultStepProblems: [Diagnostic] {
        do {
            _ = try ScenarioRunner.defaultSteps(settings: settings, registry: registry, buildContext: buildContext)
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// The scenario files for `paths` (default: the settings' scenario folder); folders named in
    /// `settings.exclude` are skipped unless a path names them (or a file in them) directly.
    package func scenarioFiles(paths: [String]) throws(DiagnosticList) -> [String] {
        let roots = paths.isEmpty ? [settings.scenarios] : paths
        let files = try ScenarioLoader.scenarioFiles(in: roots)
        let excluded = settings.exclude.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        return files.filter { file in
            !excluded.contains { prefix in
                file.hasPrefix(prefix) && !roots.contains { $0.hasPrefix(prefix) || $0 == String(prefix.dropLast()) }
            }
        }
    }

    /// What `PATH:LINE` arguments choose among `loaded` (`nil` when none named a line: every scenario); a
    /// file also named whole (itself, or a folder holding it) keeps all its scenarios. A line inside no
    /// scenario throws ``ScenarioSelectionError/noScenarioAtLine(path:line:starts:)``, a usage error.
    /// The command line and `ScenarioTesting` both choose so.
    package func lineSelection(_ lines: ScenarioLines, of loaded: [Scenario]) throws -> LineSelection? {
        try lines.selection(
            of: loaded,
            wholeFiles: lines.wholePaths.isEmpty ? [] : scenarioFiles(paths: lines.wholePaths)
        )
    }

    /// Loads and checks every scenario file; all errors of all files, and of `server.yml`, at once.
    /// `keepingActions: false` keeps each step as its description only (``ScenarioLoader/keepsActions``):
    /// for a process whose workers run the scenarios.
    package func loadScenarios(paths: [String], keepingActions: Bool = true) throws(DiagnosticList) -> [Scenario] {
        var diagnostics = DiagnosticCollection(serverDiagnostics)
        diagnostics += defaultStepProblems
        do {
            let files = try scenarioFiles(paths: paths)
            var loader = ScenarioLoader(registry: registry, buildContext: buildContext)
            loader.keepsActions = keepingActions
            let scenarios = try loader.load(paths: files)
            if diagnostics.isEmpty { return scenarios }
        } catch {
            diagnostics += error
        }
        throw DiagnosticList(diagnostics)
    }

    /// Starts the stub server on 127.0.0.1 (a free port unless `port` says otherwise); `onExchange` sees
    /// every request it answers; `forwarding` hands requests to another server (`--record`). Its journal
    /// keeps the answers (status, body) only when a report shows the request log (``RunSettings/requestLog``).
    package func makeServer(
        port: Int = 0,
        onExchange: (@Sendable (StubExchange) -> Void)? = nil,
        forwarding: Forwarding? = nil
    ) -> StubServer {
        var limits = StubServerLimits.standard
        limits.journal.answers = settings.requestLog
        return StubServer(
            fixtures: fixtures,
            routes: serverRoutes,
            port: port,
            limits: limits,
            onExchange: onExchange,
            forwarding: forwarding
        )
    }

    /// `server.yml` routes that an earlier route always answers first: `check` warns about them.
    package var shadowedRoutes: [RouteShadowing] {
        RouteShadowing.find(in: serverRoutes.routes)
    }

    /// A runner whose scenarios see the test environment (factory, server, fixtures) and end with `check
    /// for leaks` (unless `leaks: off`): the built-in checks and the app's own.
    package func makeRunner(
        server: StubServer,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        onAbandonedStep: (@Sendable () -> Void)? = nil
    ) throws -> ScenarioRunner {
        let testEnvironment = TestEnvironment(
            factory: factory,
            server: server,
            fixtures: fixtures,
            idlingResources: app.idlingResources,
            logsUnmatchedRequests: settings.unmatchedRequests != .off
        )
        let contract =
            settings.contract == .off
            ? nil
            : document.map { RequestContractCheck(document: $0, mode: settings.contract, journal: server.journal) }
        let stepCheck: (@Sendable (ScenarioContext) -> StepCheckFailure?)? =
            if let contract { { context in contract.afterStep(context) } } else { nil }
        let leaks = SharedStateLeaks(
            configuredRoutes: configuredRoutes,
            appChecks: app.leakChecks,
            failsOnUnmatchedRequests: settings.unmatchedRequests == .fail,
            contract: contract
        )
        return try ScenarioRunner(
            registry: registry,
            settings: settings,
            environment: environment,
            buildContext: buildContext,
            onAbandonedStep: onAbandonedStep,
            leakCheck: { context in try await leaks.leaks(in: context) },
            sentRequests: { _ in server.journal.methodsAndPaths.map { SentRequest(method: $0.method, path: $0.path) } },
            requestLog: { _, failed in Self.requestLog(server.journal, failed: failed, settings: settings) },
            stepCheck: stepCheck,
            prepare: { context in
                context[TestEnvironment.Key.self] = testEnvironment
                contract?.begin(context)
            }
        )
    }

    /// Runs scenarios against a fresh stub server, handing every event to `onEvent`.
    package func run(_ scenarios: [Scenario], onEvent: @escaping @Sendable (RunEvent) -> Void) async throws
        -> RunSummary
    {
        let server = makeServer()
        _ = try await server.start()
        do {
            let runner = try makeRunner(server: server)
            let summary = await runner.run(scenarios, onEvent: onEvent)
            await server.stop()
            return summary
        } catch {
            await server.stop()
            throw error
        }
    }

    /// `path` relative to `directory` when it is inside it, for messages users can click.
    package static func displayPath(_ url: URL, from directory: URL) -> String {
        let base = directory.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }
}
