import ArgumentParser
import Diagnostics
import Foundation
import ObjectManager
import Scenarios
import SharedValues
import StubServer
import Synchronization

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

    @Option(
        name: .customLong("redact"),
        help: ArgumentHelp(
            "A response header never written (besides Authorization, Cookie, Set-Cookie, Proxy-Authorization); repeated for more.",
            valueName: "HEADER"
        )
    )
    var redactedHeaders: [String] = []

    @Option(
        name: .customLong("redact-json"),
        help: ArgumentHelp(
            "A JSON key whose values are written as \"REDACTED\" in the recorded bodies; repeated for more.",
            valueName: "KEY"
        )
    )
    var redactedKeys: [String] = []

    @Flag(help: "Replace an existing fixture file or server.yml route for a recorded request.")
    var overwrite = false

    @OptionGroup var project: ProjectOptions

    /// How long the target may take to answer one request.
    static let requestTimeout = Duration.seconds(30)

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
        let fixtures = directory.appendingPathComponent(settings.fixtures)
        let serverURL = fixtures.appendingPathComponent("server.yml")
        let serverFile = settings.fixtures + "/server.yml"
        var table: ServerRouteTable?
        var serverText: String?
        if FileManager.default.fileExists(atPath: serverURL.path) {
            do {
                serverText = try String(contentsOf: serverURL, encoding: .utf8)
            } catch {
                Terminal.printError("error: Cannot read \(serverFile): \(error.localizedDescription)")
                throw ExitCode(2)
            }
            do throws(DiagnosticList) {
                table = try ServerRouteTable.parse(yaml: serverText ?? "", file: serverFile)
            } catch {
                Terminal.printError("\(error)")
                Terminal.printError("error: \(serverFile) must load before recording into it; nothing was recorded.")
                throw ExitCode(2)
            }
        }
        let existing = Set((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        let recorder = Mutex(
            Recorder(
                options: Recorder.Options(
                    redactedHeaders: redactedHeaders,
                    redactedKeys: redactedKeys,
                    overwrite: overwrite,
                    fixturesName: settings.fixtures
                ),
                existingFiles: existing
            )
        )
        let output = StandardOutput()
        let base = target.hasSuffix("/") ? String(target.dropLast()) : target
        let transport = NIOHTTPTransport(connectTimeout: .seconds(5))
        let forwarding = Forwarding(scope: .everything) { request in
            let answer = await Self.send(request, to: base, transport: transport)
            let line: String
            switch answer {
            case .success(let answer):
                line = recorder.withLock { $0.add(request, answer: answer) }
                output.write(TerminalText.escaped(line, keepingLineBreaks: false) + "\n")
                return answer
            case .failure(let reason):
                output.write(
                    TerminalText.escaped(
                        "\(request.method) \(request.target) → 502 (\(reason)); not recorded",
                        keepingLineBreaks: false
                    )
                        + "\n"
                )
                return .badGateway("The target did not answer \(request.method) \(request.target): \(reason)")
            }
        }
        let server = StubServer(
            fixtures: fixtures,
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
            "Recording \(base) at \(url.absoluteString) into \(settings.fixtures)/. Press Ctrl-C to stop and write.\n"
        )
        for await _ in stopped.stream {}
        await server.stop()
        await transport.shutdown()
        let recorded = recorder.withLock { $0 }
        interrupts.cancel()
        try Self.write(
            recorded,
            serverText: serverText,
            table: table,
            serverFile: serverFile,
            fixtures: fixtures,
            source: base
        )
    }

    /// The target's answer to `request`, or why there is none.
    static func send(_ request: ForwardedRequest, to base: String, transport: NIOHTTPTransport) async
        -> Result<ForwardedAnswer, ForwardError>
    {
        guard let method = HTTPMethod(rawValue: request.method) else {
            return .failure(ForwardError("\(request.method) is not a method scenario-run can send"))
        }
        guard let url = URL(string: base + request.target) else {
            return .failure(ForwardError("\(base + request.target) is not a URL"))
        }
        // The transport sets Host and Content-Length itself; asking for an encoding would record compressed bytes.
        let dropped: Set<String> = Forwarding.hopByHop.union(["host", "accept-encoding"])
        let headers = request.headers.filter { !dropped.contains($0.name.lowercased()) }
        do {
            let response = try await transport.send(
                HTTPRequest(
                    method: method,
                    url: url,
                    headers: headers,
                    body: request.body.isEmpty ? nil : request.body,
                    timeout: requestTimeout
                )
            )
            return .success(ForwardedAnswer(status: response.status, headers: response.headers, body: response.body))
        } catch {
            return .failure(ForwardError("\(error)"))
        }
    }

    /// Why a request got no answer from the target.
    struct ForwardError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Writes the fixture files, then `server.yml`, each atomically, and prints what was written.
    static func write(
        _ recorder: Recorder,
        serverText: String?,
        table: ServerRouteTable?,
        serverFile: String,
        fixtures: URL,
        source: String
    ) throws {
        var lines: [String] = []
        defer { print(lines.joined(separator: "\n")) }
        guard recorder.requestCount > 0 else {
            lines.append("Nothing recorded; nothing written.")
            return
        }
        let output: Recorder.Output
        do {
            output = try recorder.output(serverText: serverText, table: table, serverFile: serverFile, source: source)
        } catch {
            lines.append("error: \(error)")
            throw ExitCode(1)
        }
        do {
            try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
            // Written beside and renamed into place (a link written through to its target), as every report is.
            for file in output.files {
                try FileWriteError.write(file.data, to: fixtures.appendingPathComponent(file.name))
            }
            if output.added > 0 {
                try FileWriteError.write(
                    Data(output.serverText.utf8),
                    to: fixtures.appendingPathComponent("server.yml")
                )
            }
        } catch {
            lines.append("error: The recording was not written whole: \(error)")
            throw ExitCode(1)
        }
        let count = recorder.requestCount
        lines.append(
            "Recorded \(count) request\(count == 1 ? "" : "s") from \(source): \(output.added) route"
                + "\(output.added == 1 ? "" : "s") added to \(serverFile), \(output.files.count) fixture file"
                + "\(output.files.count == 1 ? "" : "s") written."
        )
        if !output.replaced.isEmpty {
            lines.append("Replaced (--overwrite): " + output.replaced.joined(separator: ", "))
        }
        for kept in output.kept { lines.append("Not written: \(kept)") }
        if recorder.notRecorded > 0 {
            lines.append("Not recorded (over the limits): \(recorder.notRecorded) exchanges")
        }
        let headers = recorder.redactedHeaderCounts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
        let keys = recorder.redactedKeyCounts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
        if !headers.isEmpty { lines.append("Redacted headers, never written: " + headers.joined(separator: ", ")) }
        if !keys.isEmpty {
            lines.append("Redacted JSON keys, written as \"REDACTED\": " + keys.joined(separator: ", "))
        }
    }
}
