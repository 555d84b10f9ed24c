import ArgumentParser
import Diagnostics
import Foundation
import ObjectManager
import RunPipeline
import Scenarios
import SharedValues
import StubServer
import Synchronization

/// What a recording keeps out of the files it writes, and whether it may replace: the options `record` and
/// a run's `--record URL` share.
struct RecordingOptions: ParsableArguments {
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

    @Option(
        name: .customLong("redact-query"),
        help: ArgumentHelp(
            "A query parameter (an API key, a token) left out of what is written — the fixture's name and the route's when: — so any value of it plays back; repeated for more.",
            valueName: "NAME"
        )
    )
    var redactedQueryNames: [String] = []

    @Flag(help: "Replace an existing fixture file or server.yml route for a recorded request.")
    var overwrite = false

    /// Whether any of these options was given.
    var isGiven: Bool {
        !redactedHeaders.isEmpty || !redactedKeys.isEmpty || !redactedQueryNames.isEmpty || overwrite
    }
}

/// A recording under way: requests forwarded to a real server (`record`: every request; `--record`: those no
/// route answers), each answer kept by a ``Recorder``, and at the end the fixture files and `server.yml`
/// routes that play them back, written beside the project's own.
final class Recording: Sendable {
    /// The target's base URL, without a trailing `/`.
    let target: String
    /// `Fixtures/server.yml` as the messages name it.
    let serverFile: String
    private let fixtures: URL
    private let serverText: String?
    private let table: ServerRouteTable?
    private let recorder: Mutex<Recorder>
    /// The requests the target gave no answer to (a 502 was given), as lines; at most ``failureLines``.
    private let failures = Mutex<(lines: [String], count: Int)>(([], 0))
    /// Each recorded exchange as a line (`GET /items → 200  Fixtures/items.json`), at most ``exchangeLines``,
    /// and how many there were.
    private let exchanges = Mutex<(lines: [String], count: Int)>(([], 0))
    private let transport: NIOHTTPTransport

    /// How long the target may take to answer one request.
    static let requestTimeout = Duration.seconds(30)
    /// Lines kept for the summary of a run; the rest are counted.
    static let exchangeLines = 50
    static let failureLines = 20

    /// Reads the project's `server.yml` (new routes are appended to it). A file that cannot be read or does
    /// not load is said on stderr and ends the command (exit 2) before anything is forwarded.
    init(
        target: String,
        options: RecordingOptions,
        settings: RunSettings,
        directory: URL,
        environment: [String: String]
    ) throws {
        self.target = target.hasSuffix("/") ? String(target.dropLast()) : target
        fixtures = directory.appendingPathComponent(settings.fixtures)
        serverFile = settings.fixtures + "/server.yml"
        let serverURL = fixtures.appendingPathComponent("server.yml")
        var text: String?
        var table: ServerRouteTable?
        if FileManager.default.fileExists(atPath: serverURL.path) {
            do {
                text = try String(contentsOf: serverURL, encoding: .utf8)
            } catch {
                Terminal.printError("error: Cannot read \(serverFile): \(error.localizedDescription)")
                throw ExitCode(2)
            }
            do throws(DiagnosticList) {
                table = try ServerRouteTable.parse(yaml: text ?? "", file: serverFile)
            } catch {
                Terminal.printError("\(error)")
                Terminal.printError("error: \(serverFile) must load before recording into it; nothing was recorded.")
                throw ExitCode(2)
            }
        }
        serverText = text
        self.table = table
        let existing = Set((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        recorder = Mutex(
            Recorder(
                options: Recorder.Options(
                    redactedHeaders: options.redactedHeaders,
                    redactedKeys: options.redactedKeys,
                    redactedQueryNames: options.redactedQueryNames,
                    overwrite: options.overwrite,
                    fixturesName: settings.fixtures
                ),
                existingFiles: existing
            )
        )
        transport = NIOHTTPTransport(
            connectTimeout: .seconds(5),
            trustedCertificates: try ProjectOptions.trustedCertificates(environment: environment)
        )
    }

    /// The stub server's forwarding: each request of `scope` goes to the target; its answer is recorded and
    /// given back, or a 502 says why there is none. `report` sees each exchange's line as it happens.
    func forwarding(scope: Forwarding.Scope, report: (@Sendable (String) -> Void)? = nil) -> Forwarding {
        Forwarding(scope: scope) { request in
            switch await self.send(request) {
            case .success(let answer):
                let line = self.recorder.withLock { $0.add(request, answer: answer) }
                self.exchanges.withLock {
                    $0.count += 1
                    if $0.lines.count < Self.exchangeLines { $0.lines.append(line) }
                }
                report?(TerminalText.escaped(line, keepingLineBreaks: false))
                return answer
            case .failure(let error):
                let target = self.recorder.withLock { $0.shownTarget(of: request) }
                let line = TerminalText.escaped(
                    "\(request.method) \(target) → 502 (\(error.reason)); not recorded",
                    keepingLineBreaks: false
                )
                self.failures.withLock {
                    $0.count += 1
                    if $0.lines.count < Self.failureLines { $0.lines.append(line) }
                }
                report?(line)
                return .badGateway("The target did not answer \(request.method) \(target): \(error.reason)")
            }
        }
    }

    /// The target's answer to `request`, or why there is none.
    private func send(_ request: ForwardedRequest) async -> Result<ForwardedAnswer, ForwardError> {
        guard let method = HTTPMethod(rawValue: request.method) else {
            return .failure(ForwardError("\(request.method) is not a method scenario-run can send"))
        }
        guard let url = URL(string: target + request.target) else {
            return .failure(ForwardError("\(target + request.target) is not a URL"))
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
                    timeout: Self.requestTimeout
                )
            )
            return .success(ForwardedAnswer(status: response.status, headers: response.headers, body: response.body))
        } catch {
            return .failure(ForwardError("\(error)"))
        }
    }

    /// Why a request got no answer from the target.
    private struct ForwardError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Closes the connections to the target.
    func shutdown() async {
        await transport.shutdown()
    }

    /// Writes the fixture files, then `server.yml`, each atomically, and returns what to say: a summary, what
    /// was replaced or kept, what was redacted; with `listing`, each exchange recorded and each the target
    /// did not answer. A recording that cannot be written whole throws ``WriteFailed``, with the lines to say.
    func write(listing: Bool) throws(WriteFailed) -> [String] {
        let recorded = recorder.withLock { $0 }
        var lines: [String] = []
        let (failureLines, failureCount) = failures.withLock { ($0.lines, $0.count) }
        if listing {
            let (exchangeLines, exchangeCount) = exchanges.withLock { ($0.lines, $0.count) }
            lines += exchangeLines.map { "  " + $0 }
            if exchangeCount > exchangeLines.count {
                lines.append("  … and \(exchangeCount - exchangeLines.count) more exchanges")
            }
            lines += failureLines.map { "  " + $0 }
            if failureCount > failureLines.count {
                lines.append("  … and \(failureCount - failureLines.count) more the target did not answer")
            }
        }
        guard recorded.requestCount > 0 else {
            lines.append("Nothing recorded; nothing written.")
            return lines
        }
        let output: Recorder.Output
        do {
            output = try recorded.output(serverText: serverText, table: table, serverFile: serverFile, source: target)
        } catch {
            throw WriteFailed(lines: lines + ["error: \(error)"])
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
            throw WriteFailed(lines: lines + ["error: The recording was not written whole: \(error)"])
        }
        let count = recorded.requestCount
        lines.append(
            "Recorded \(count) request\(count == 1 ? "" : "s") from \(target): \(output.added) route"
                + "\(output.added == 1 ? "" : "s") added to \(serverFile), \(output.files.count) fixture file"
                + "\(output.files.count == 1 ? "" : "s") written."
        )
        if !output.replaced.isEmpty {
            lines.append("Replaced (--overwrite): " + output.replaced.joined(separator: ", "))
        }
        for kept in output.kept { lines.append("Not written: \(kept)") }
        if recorded.notRecorded > 0 {
            lines.append("Not recorded (over the limits): \(recorded.notRecorded) exchanges")
        }
        let headers = recorded.redactedHeaderCounts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
        let keys = recorded.redactedKeyCounts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
        if !headers.isEmpty { lines.append("Redacted headers, never written: " + headers.joined(separator: ", ")) }
        if !keys.isEmpty {
            lines.append("Redacted JSON keys, written as \"REDACTED\": " + keys.joined(separator: ", "))
        }
        let query = recorded.redactedQueryCounts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
        if !query.isEmpty { lines.append("Redacted query parameters, never written: " + query.joined(separator: ", ")) }
        return lines
    }

    /// A recording not written whole, and what to say about it.
    struct WriteFailed: Error {
        var lines: [String]
    }
}
