import ArgumentParser
import Diagnostics
import Foundation
import RunPipeline
import Scenarios
import StubServer

/// `scenario-run record --target URL` — a recording proxy on 127.0.0.1: every request goes on to the target,
/// its answer comes back, and on Ctrl-C (or SIGTERM) each distinct exchange is written as a fixture file and
/// a `server.yml` route that plays it back.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Forward requests to a real server and write what it answered as fixtures and server.yml routes.",
        discussion: """
            Listens on 127.0.0.1 and sends each request on to the target, answering with what it answered \
            (a 502 saying why when it gives no answer: nothing is recorded for it). On Ctrl-C or SIGTERM \
            each distinct request (method, path, query) is written as a fixture file named from its path \
            and a server.yml route appended after the existing ones: when: { query } where a path was asked \
            with different queries, responses: where one request was answered differently. Authorization, \
            Cookie, Set-Cookie and Proxy-Authorization are never written. An existing fixture file or route \
            is never replaced without --overwrite. See docs/record.md.
            """
    )

    @Option(help: ArgumentHelp("The real server's base URL, like https://staging.example.com/api.", valueName: "URL"))
    var target: String

    /// Optional, so that the help says the default once, in words.
    @Option(help: ArgumentHelp("The port on 127.0.0.1 to listen on (default: a free one).", valueName: "N"))
    var port: Int?

    @OptionGroup var recording: RecordingOptions

    @OptionGroup var project: ProjectOptions

    func validate() throws {
        try ProjectOptions.validateTarget(target)
        guard (0...65535).contains(port ?? 0) else { throw ValidationError("--port takes 0...65535.") }
    }

    func run() async throws {
        try project.enter()
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let settings: RunSettings
        do throws(DiagnosticList) {
            settings = try project.settings(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw Terminal.failLoading(error)
        }
        let recording = try Recording(
            target: target,
            options: self.recording,
            settings: settings,
            directory: directory,
            environment: ProcessInfo.processInfo.environment
        )
        let output = StandardOutput()
        let forwarding = recording.forwarding(scope: .everything) { output.write($0 + "\n") }
        let server = StubServer(
            fixtures: directory.appendingPathComponent(settings.fixtures),
            routes: ServerRouteTable(routes: []),
            port: port ?? 0,
            forwarding: forwarding
        )
        let url: URL
        do {
            url = try await server.start()
        } catch {
            Terminal.printError("error: The recording proxy could not start: \(error)")
            throw ExitCode(2)
        }
        // Listening for Ctrl-C before saying where it listens: a signal sent as soon as the URL is read stops it.
        let stopped = AsyncStream<Void>.makeStream()
        let interrupts = InterruptHandler(onFirst: { stopped.continuation.finish() })
        output.write(
            "Recording \(recording.target) at \(url.absoluteString) into \(settings.fixtures)/. Press Ctrl-C to stop and write.\n"
        )
        for await _ in stopped.stream {}
        await server.stop()
        await recording.shutdown()
        interrupts.cancel()
        do throws(Recording.WriteFailed) {
            print(try recording.write(listing: false).joined(separator: "\n"))
        } catch {
            print(error.lines.joined(separator: "\n"))
            throw ExitCode(1)
        }
    }
}
