import ArgumentParser
import Foundation
import RunPipeline
import Scenarios
import Steps
import StubServer

/// `scenario-run schema scenarios|server|settings|events` — a JSON Schema of that file kind, with the app's
/// step, entity, factory and route names, for editors' YAML support; `events`: one line of `--events`.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract:
            "Print a JSON Schema (draft 2020-12) of scenario files, server.yml, scenario-run.yml or a line of --events.",
        discussion: """
            Save it and point your editor at it: with the YAML extension (yaml-language-server), a first line \
            '# yaml-language-server: $schema=../scenarios.schema.json' in a scenario file, or "yaml.schemas" in \
            the editor's settings.
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case scenarios, server, settings, events
    }

    @Argument(help: ArgumentHelp("scenarios, server, settings or events.", valueName: "KIND"))
    var kind: Kind

    @OptionGroup var project: ProjectOptions

    func run() async throws {
        try project.enter()
        let schema: JSONValue
        switch kind {
        case .server: schema = ServerRouteTable.schema
        case .settings: schema = RunSettings.schema
        case .events: schema = RunEventStream.schema
        case .scenarios:
            do {
                let settings = try project.settings(environment: ProcessInfo.processInfo.environment)
                let suite = try ScenarioSuite(
                    app: RootCommand.appUnderTest,
                    settings: settings,
                    directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                )
                schema = ScenarioFileSchema.schema(
                    definitions: suite.registry.definitions,
                    vocabulary: suite.buildContext.vocabulary
                )
            } catch {
                throw Terminal.failLoading(error)
            }
        }
        print(String(decoding: schema.encoded(sortedKeys: true), as: UTF8.self))
    }
}
