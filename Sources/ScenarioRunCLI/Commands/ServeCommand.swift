import ArgumentParser
import Diagnostics
import Foundation
import RunPipeline
import Scenarios
import Steps
import StubServer

/// `scenario-run serve [--port N] [--verbose]` — only the stub server, until interrupted. With no scenario
/// to set up, `POST /__scenario-run/reset` resets its sequences, states and stubs.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run only the stub server on 127.0.0.1, print its URL, serve until interrupted.",
        discussion: """
            It serves the fixtures and `server.yml`, to develop a client against them. With no scenario to set \
            up, `POST /__scenario-run/reset` resets its sequences, states and stubs (docs/server.md).
            """
    )

    /// Optional, so that the help says the default once, in words (argument-parser would add `(default: 0)`).
    @Option(help: ArgumentHelp("The port on 127.0.0.1 (default: a free one).", valueName: "N"))
    var port: Int?

    @Flag(
        help: "Print one line per request: method, target, status, the route that answered or the nearest misses, time."
    )
    var verbose = false

    @OptionGroup var project: ProjectOptions

    func validate() throws {
        guard (0...65535).contains(port ?? 0) else { throw ValidationError("--port takes 0...65535.") }
    }

    func run() async throws {
        try project.enter()
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let suite: ScenarioSuite
        do throws(DiagnosticList) {
            let settings = try project.settings(environment: ProcessInfo.processInfo.environment)
            suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            if !suite.serverDiagnostics.isEmpty { throw DiagnosticList(suite.serverDiagnostics) }
        } catch {
            throw Terminal.failLoading(error)
        }
        let output = StandardOutput()
        var log: (@Sendable (StubExchange) -> Void)?
        if verbose {
            // The target and the near misses' reasons hold the request's decoded values: shown, never obeyed.
            log = { (exchange: StubExchange) in
                output.write(TerminalText.escaped(exchange.line, keepingLineBreaks: false) + "\n")
            }
        }
        let server = suite.makeServer(port: port ?? 0, onExchange: log)
        let url: URL
        do {
            url = try await server.start()
        } catch {
            Terminal.printError("error: The stub server could not start: \(error)")
            throw ExitCode(2)
        }
        // Listening for Ctrl-C before saying where it serves: a signal sent as soon as the URL is read stops it.
        let stopped = AsyncStream<Void>.makeStream()
        let interrupts = InterruptHandler(onFirst: { stopped.continuation.finish() })
        output.write(
            "Serving \(suite.fixtures.path) with \(suite.serverRoutes.routes.count) routes at \(url.absoluteString)\n"
                + "POST \(url.absoluteString)/__scenario-run/reset resets sequences and states. Press Ctrl-C to stop.\n"
        )
        for await _ in stopped.stream {}
        interrupts.cancel()
        await server.stop()
        print("Stopped; \(server.journal.receivedCount) requests served.")
    }
}
