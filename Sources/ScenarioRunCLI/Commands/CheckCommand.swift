import ArgumentParser
import Contract
import Diagnostics
import Foundation
import RunPipeline
import Scenarios
import Steps
import StubServer

/// `scenario-run check [PATH ...]` — load and validate everything; run nothing.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load and validate scenario files, server.yml and fixture references; run nothing.",
        discussion: """
            Prints `OK: N scenarios in N files, N server routes.`, or every diagnostic (`FILE:LINE:COL: \
            error: …` with the line and a caret) and exits 2. With an OpenAPI document (`--openapi`, \
            `openapi:`) it also prints the document's operations that no route stubs or that the last \
            run's scenarios did not exercise (docs/contract.md).
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Scenario files or folders (default: Scenarios/); PATH:LINE is read as PATH.",
            valueName: "PATH"
        )
    )
    var paths: [String] = []

    @Option(
        help: ArgumentHelp(
            "Hold every server.yml route and fixture to this OpenAPI 3.0 or 3.1 document (also 'openapi:' in scenario-run.yml).",
            discussion: """
                Each route must be an operation of the document, answer a status it declares, and answer a body \
                its response schema allows; a problem is located at the route and at the place in the body \
                (`review.json: $.rating: expected integer, found string "5"`). See docs/contract.md.
                """,
            valueName: "FILE"
        )
    )
    var openapi: String?

    @OptionGroup var project: ProjectOptions

    /// The coverage table of `document` by the routes and the last run's requests (`.scenario-run/`).
    static func coverage(of document: APIDocument, routes: [ServerRoute], directory: URL) -> String {
        var lastRun: SentRequestsState.Run?
        do {
            lastRun = try SentRequestsState(projectDirectory: directory).load()
        } catch {
            Terminal.printError("warning: \(error)")
        }
        let coverage = OperationCoverage(
            of: document,
            routes: routes,
            lastRun: lastRun.map { $0.requests.map { ($0.method, $0.path) } }
        )
        let run = lastRun.map { run in
            let when = ISO8601DateFormatter().string(from: run.finished)
            let dropped = run.dropped > 0 ? "; \(run.dropped) more distinct requests were not kept" : ""
            return "\(run.scenarios) scenario\(run.scenarios == 1 ? "" : "s"), \(when)\(dropped)"
        }
        return coverage.table(document: document.file, run: run)
    }

    func run() async throws {
        try project.enter()
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let paths = ScenarioLines(arguments: paths).paths
        do throws(DiagnosticList) {
            var settings = try project.settings(environment: ProcessInfo.processInfo.environment)
            if let openapi { settings.openapi = openapi }
            let suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            let files = try suite.scenarioFiles(paths: paths)
            let scenarios = try suite.loadScenarios(paths: paths)
            for warning in suite.shadowedRoutes { Terminal.printError(warning.description) }
            var contract = ""
            var coverage: String?
            if let openapi = settings.openapi, let document = suite.document {
                let fixtures = directory.appendingPathComponent(settings.fixtures)
                let serverFile = fixtures.appendingPathComponent("server.yml")
                let problems = RouteContract.problems(
                    of: suite.serverRoutes.routes,
                    against: document,
                    fixtures: fixtures,
                    fixturesName: settings.fixtures,
                    source: try? String(contentsOf: serverFile, encoding: .utf8)
                )
                if !problems.isEmpty { throw DiagnosticList(problems) }
                let count = document.operations.count
                contract = " Every route agrees with \(openapi) (\(count) operation\(count == 1 ? "" : "s"))."
                coverage = Self.coverage(of: document, routes: suite.serverRoutes.routes, directory: directory)
            }
            print(
                "OK: \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s"), \(suite.serverRoutes.routes.count) server routes."
                    + contract
            )
            if let coverage { print(coverage) }
        } catch {
            throw Terminal.failLoading(error)
        }
    }
}
