import ArgumentParser
import Foundation
import Scenarios
import Steps

/// `scenario-run check [PATH ...]` — load and validate everything; run nothing.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load and validate scenario files, server.yml and fixture references; run nothing.",
        discussion: """
            Prints `OK: N scenarios in N files, N server routes.`, or every diagnostic (`FILE:LINE:COL: \
            error: …` with the line and a caret) and exits 2.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Scenario files or folders (default: Scenarios/); PATH:LINE is read as PATH.",
            valueName: "PATH"
        )
    )
    var paths: [String] = []

    @OptionGroup var project: ProjectOptions

    func run() async throws {
        try project.enter()
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let paths = ScenarioLines(arguments: paths).paths
        do {
            let settings = try project.settings(environment: ProcessInfo.processInfo.environment)
            let suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            let files = try suite.scenarioFiles(paths: paths)
            let scenarios = try suite.loadScenarios(paths: paths)
            for warning in suite.shadowedRoutes { Terminal.printError(warning.description) }
            print(
                "OK: \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s"), \(suite.serverRoutes.routes.count) server routes."
            )
        } catch {
            throw Terminal.failLoading(error)
        }
    }
}
