import Foundation
import Glibc
import ObjectManager
import TestSupport
import Testing

/// `scenario-run record` through the built binary, against a real upstream on loopback (a second
/// `scenario-run serve`), driven by the package's own HTTP client; what it writes is played back by a third
/// `serve` and compared byte for byte.
@Suite(.serialized)
struct RecordCLITests {
    /// An upstream with query, header, sequence, binary and empty answers.
    static func upstream() throws -> URL {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png += Data((0..<600).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        let project = try CLI.project([
            "Fixtures/server.yml": """
            routes:
              - { path: /items, method: GET, when: { query: { page: "2" } }, json: [ { id: 3 }, { id: 4 } ] }
              - { path: /items, method: GET, json: [ { id: 1, name: "A \\"quoted\\" name" }, { id: 2 } ] }
              - { path: "/items/:id", method: GET, json: { id: 1, detail: "é ✓" } }
              - { path: /items, method: POST, status: 201, json: { id: 9 }, headers: { Location: /items/9 } }
              - { path: "/items/:id", method: DELETE, status: 204, body: "" }
              - path: /flaky
                method: POST
                responses:
                  - { status: 503, body: "busy" }
                  - { status: 201, json: { ok: true } }
              - { path: /logo.png, fixture: logo.png }
              - { path: /login, method: POST, json: { token: SECRET-JSON-TOKEN, user: ada }, headers: { Set-Cookie: "session=SECRET-COOKIE", X-Api-Key: SECRET-API-KEY, Cache-Control: no-store } }

            """,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        try png.write(to: project.appendingPathComponent("Fixtures/logo.png"))
        return project
    }

    /// A running `serve` or `record` and the URL it listens on.
    static func start(_ arguments: [String], in project: URL) async throws -> (CLI.Running, String) {
        let process = try CLI.Running(arguments, directory: project, environment: [:])
        #expect(await eventually(timeout: .seconds(30)) { listening(process.stdout) != nil }, "\(process.stderr)")
        return (process, try #require(listening(process.stdout), "\(process.stdout)\(process.stderr)"))
    }

    /// The URL after ` at ` on the first line (`Serving … at URL`, `Recording TARGET at URL …`).
    static func listening(_ output: String) -> String? {
        guard let line = output.split(separator: "\n").first, let range = line.range(of: " at http://") else {
            return nil
        }
        return line[range.upperBound...].split(separator: " ").first.map { "http://" + $0 }
    }

    /// The requests the client sends, in order: 56 of them, with repeats, queries, bodies and secrets.
    static let requests: [(HTTPMethod, String, Data?)] = {
        var all: [(HTTPMethod, String, Data?)] = []
        for round in 0..<8 {
            all.append((.get, "/items", nil))
            all.append((.get, "/items?page=2", nil))
            all.append((.get, "/items/\(round % 3 + 1)", nil))
            all.append((.get, "/logo.png", nil))
            all.append((.post, "/items", Data(#"{"name":"new"}"#.utf8)))
            all.append((.delete, "/items/\(round)", nil))
        }
        all += [(.post, "/flaky", nil), (.post, "/flaky", nil), (.post, "/flaky", nil)]
        all += [(.post, "/login", Data(#"{"password":"SECRET-PASSWORD"}"#.utf8)), (.get, "/nowhere", nil)]
        all += [(.get, "/items?page=2", nil), (.get, "/items?page=3", nil), (.get, "/items?page=3", nil)]
        return all
    }()

    struct Answer: Equatable {
        var status: Int
        var body: Data
        var contentType: String?
        var location: String?
    }

    static func send(_ requests: [(HTTPMethod, String, Data?)], to base: String) async throws -> [Answer] {
        let transport = NIOHTTPTransport()
        var answers: [Answer] = []
        for (method, path, body) in requests {
            let response = try await transport.send(
                HTTPRequest(
                    method: method,
                    url: try #require(URL(string: base + path)),
                    headers: [
                        HTTPHeader(name: "Authorization", value: "Bearer SECRET-BEARER"),
                        HTTPHeader(name: "Cookie", value: "session=SECRET-REQUEST-COOKIE"),
                        HTTPHeader(name: "Content-Type", value: "application/json"),
                    ],
                    body: body,
                    // A hang guard, not a bound: through the recording proxy on a loaded machine one exchange
                    // once took longer than the client's default 10 s.
                    timeout: .seconds(60)
                )
            )
            answers.append(
                Answer(
                    status: response.status,
                    body: response.body,
                    contentType: response.headers[field: "Content-Type"],
                    location: response.headers[field: "Location"]
                )
            )
        }
        await transport.shutdown()
        return answers
    }

    /// Every file under `folder`, as text (binary files as Latin-1, so bytes can be searched).
    static func allText(under folder: URL) throws -> String {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? []
        return try files.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }.map { url in
            String(decoding: try Data(contentsOf: url), as: UTF8.self)
        }.joined(separator: "\n")
    }

    @Test func recordedRequestsPlayBackWithTheSameStatusesHeadersAndBytesAndNoSecret() async throws {
        let (upstream, target) = try await Self.start(["serve"], in: try Self.upstream())
        defer { upstream.process.interrupt() }
        let recording = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        try FileManager.default.removeItem(at: recording.appendingPathComponent("Fixtures"))
        let (recorder, proxy) = try await Self.start(
            ["record", "--target", target, "--redact", "X-Api-Key", "--redact-json", "token"],
            in: recording
        )
        let recorded = try await Self.send(Self.requests, to: proxy)
        #expect(recorded.count == 56)
        #expect(recorded.map(\.status).filter { $0 == 404 }.count == 1, "the upstream's own 404 is recorded too")
        recorder.process.interrupt()
        let result = await recorder.wait()
        #expect(result.status == 0, "\(result.stderr)")
        // One line per exchange, then the summary.
        #expect(result.stdout.contains("GET /items?page=2 → 200  Fixtures/items-page-2.json"), "\(result.stdout)")
        #expect(result.stdout.contains("GET /logo.png → 200  Fixtures/logo.png"), "\(result.stdout)")
        #expect(result.stdout.contains("DELETE /items/0 → 204  empty body"), "\(result.stdout)")
        #expect(
            result.stdout.contains("Recorded 19 requests from \(target): 19 routes added to Fixtures/server.yml"),
            "\(result.stdout)"
        )
        #expect(
            result.stdout.contains(
                "Redacted headers, never written: Authorization (56), Cookie (56), Set-Cookie (1), X-Api-Key (1)"
            ),
            "\(result.stdout)"
        )
        #expect(result.stdout.contains(#"Redacted JSON keys, written as "REDACTED": token (1)"#), "\(result.stdout)")

        let written = try Self.allText(under: recording.appendingPathComponent("Fixtures"))
        #expect(!written.contains("SECRET"), "\(written)")
        #expect(!written.contains("Date") && !written.contains("Server"), "\(written)")

        let check = try await CLI.run(["check"], directory: recording)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("OK: 1 scenario in 1 file, 19 server routes."), "\(check.stdout)")

        let (playback, played) = try await Self.start(["serve"], in: recording)
        defer { playback.process.interrupt() }
        let replayed = try await Self.send(Self.requests, to: played)
        for (index, (first, again)) in zip(recorded, replayed).enumerated() {
            let (method, path, _) = Self.requests[index]
            if path == "/login" {
                #expect(again.status == first.status)
                #expect(String(decoding: again.body, as: UTF8.self).contains(#""token":"REDACTED""#))
            } else {
                #expect(again == first, "request \(index): \(method) \(path)")
            }
        }
    }

    @Test(arguments: [Int32(SIGINT), SIGTERM])
    func aSignalWritesWhatWasRecordedWhole(signal: Int32) async throws {
        let (upstream, target) = try await Self.start(["serve"], in: try Self.upstream())
        defer { upstream.process.interrupt() }
        let recording = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        let (recorder, proxy) = try await Self.start(["record", "--target", target], in: recording)
        _ = try await Self.send([(.get, "/items", nil), (.get, "/items/2", nil)], to: proxy)
        kill(recorder.process.processIdentifier, signal)
        let result = await recorder.wait()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("GET /items/2 → 200"), "\(result.stdout)")
        let server = try String(contentsOf: recording.appendingPathComponent("Fixtures/server.yml"), encoding: .utf8)
        #expect(server.contains(#"path: "/items/2""#), "\(server)")
        let check = try await CLI.run(["check"], directory: recording)
        #expect(check.status == 0, "\(check.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: recording.appendingPathComponent("Fixtures").path
        )
        #expect(!leftovers.contains { $0.hasPrefix(".") }, "no half-written temporary file: \(leftovers)")
    }

    @Test func anExistingRouteOrFixtureIsReplacedOnlyWithOverwrite() async throws {
        let (upstream, target) = try await Self.start(["serve"], in: try Self.upstream())
        defer { upstream.process.interrupt() }
        let original = """
            # Hand-written routes: kept as they are.
            routes:
              # The list, by hand.
              - { path: /items, method: GET, fixture: items.json }

              # A health check.
              - { path: /health, body: ok }

            """
        let recording = try CLI.project([
            "Fixtures/server.yml": original,
            "Fixtures/items.json": "[]",
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        for overwrite in [false, true] {
            let (recorder, proxy) = try await Self.start(
                ["record", "--target", target] + (overwrite ? ["--overwrite"] : []),
                in: recording
            )
            _ = try await Self.send([(.get, "/items", nil), (.get, "/items/2", nil)], to: proxy)
            recorder.process.interrupt()
            let result = await recorder.wait()
            #expect(result.status == 0, "\(result.stderr)")
            let server = try String(
                contentsOf: recording.appendingPathComponent("Fixtures/server.yml"),
                encoding: .utf8
            )
            let items = try String(contentsOf: recording.appendingPathComponent("Fixtures/items.json"), encoding: .utf8)
            if !overwrite {
                #expect(
                    result.stdout.contains(
                        "Not written: GET /items: Fixtures/server.yml:4 already answers it (--overwrite replaces it)"
                    ),
                    "\(result.stdout)"
                )
                #expect(server.hasPrefix(original), "\(server)")
                #expect(items == "[]")
            } else {
                #expect(result.stdout.contains("Replaced (--overwrite): Fixtures/server.yml:4"), "\(result.stdout)")
                #expect(!server.contains("fixture: items.json"), "\(server)")
                #expect(server.contains("# A health check.\n  - { path: /health, body: ok }"), "\(server)")
                #expect(server.hasPrefix("# Hand-written routes: kept as they are.\nroutes:\n  # The list, by hand.\n"))
                #expect(items.contains(#""id":1"#) || items.contains(#""id": 1"#), "\(items)")
            }
            let check = try await CLI.run(["check"], directory: recording)
            #expect(check.status == 0, "\(check.stderr)")
        }
    }

    @Test func aTargetThatIsDownGets502SayingWhyAndNothingIsWritten() async throws {
        let recording = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        try FileManager.default.removeItem(at: recording.appendingPathComponent("Fixtures"))
        // A port nothing listens on.
        let (recorder, proxy) = try await Self.start(["record", "--target", "http://127.0.0.1:1"], in: recording)
        let answers = try await Self.send([(.get, "/items", nil)], to: proxy)
        #expect(answers.first?.status == 502)
        let reason = String(decoding: answers.first?.body ?? Data(), as: UTF8.self)
        #expect(reason.contains("The target did not answer GET /items"), "\(reason)")
        recorder.process.interrupt()
        let result = await recorder.wait()
        #expect(result.status == 0)
        #expect(result.stdout.contains("GET /items → 502 ("), "\(result.stdout)")
        #expect(result.stdout.contains("Nothing recorded; nothing written."), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: recording.appendingPathComponent("Fixtures").path))
    }

    /// A redacted query parameter is not shown for an exchange the target did not answer either: not in the
    /// line, not in the 502's body.
    @Test func aRedactedQueryParameterIsNotShownWhenTheTargetIsDown() async throws {
        let recording = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        let (recorder, proxy) = try await Self.start(
            ["record", "--target", "http://127.0.0.1:1", "--redact-query", "api_key"],
            in: recording
        )
        let answers = try await Self.send([(.get, "/items?api_key=SEKRIT&page=2", nil)], to: proxy)
        recorder.process.interrupt()
        let result = await recorder.wait()
        let reason = String(decoding: answers.first?.body ?? Data(), as: UTF8.self)
        #expect(answers.first?.status == 502)
        #expect(reason.contains("GET /items?api_key=REDACTED&page=2"), "\(reason)")
        #expect(result.stdout.contains("GET /items?api_key=REDACTED&page=2 → 502 ("), "\(result.stdout)")
        #expect(!(reason + result.stdout + result.stderr).contains("SEKRIT"))
    }

    @Test func aTargetThatIsNotAURLIsAUsageError() async throws {
        let result = try await CLI.run(["record", "--target", "ftp://example.com"], directory: try Self.upstream())
        #expect(result.status == 2)
        #expect(result.stderr.contains("--target takes an http or https URL"), "\(result.stderr)")
    }

    /// A user name or password in the target would be printed and written into server.yml's comment.
    @Test func aTargetWithCredentialsIsAUsageErrorNamingNoSecret() async throws {
        for arguments in [
            ["record", "--target", "http://ada:SECRET-PASSWORD@127.0.0.1:1"],
            ["--ci", "--in-process", "--record", "http://ada:SECRET-PASSWORD@127.0.0.1:1"],
            ["verify", "--target", "http://ada:SECRET-PASSWORD@127.0.0.1:1"],
        ] {
            let result = try await CLI.run(arguments, directory: try Self.upstream())
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("takes a URL without a user name or password"), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("SECRET-PASSWORD"))
        }
    }

    /// A body longer than the journal keeps (64 KiB) reaches the target whole.
    @Test func aLongBodyIsForwardedWhole() async throws {
        let upstream = try await TestUpstream.start(tls: false)
        let recording = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        let (recorder, proxy) = try await Self.start(["record", "--target", upstream.url], in: recording)
        let body = Data(repeating: UInt8(ascii: "x"), count: 200_000)
        let answers = try await Self.send([(.post, "/length", body)], to: proxy)
        recorder.process.interrupt()
        _ = await recorder.wait()
        await upstream.stop()
        #expect(answers.first?.status == 200)
        let received = String(decoding: answers.first?.body ?? Data(), as: UTF8.self)
        #expect(received == #"{"received":200000}"#)
    }

    /// `--overwrite` takes out the routes that answer a recorded request, `when:` looked at — not another
    /// route of the same path — so that the recording is what plays back.
    @Test func overwriteReplacesOnlyTheRoutesThatAnswer() async throws {
        let (upstream, target) = try await Self.start(["serve"], in: try Self.upstream())
        defer { upstream.process.interrupt() }
        let recording = try CLI.project([
            "Fixtures/server.yml": """
            routes:
              - { path: /items, method: GET, when: { query: { page: "1" } }, json: [ { id: 100 } ] }
              - { path: /items, method: GET, json: [ ] }

            """,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        let (recorder, proxy) = try await Self.start(["record", "--target", target, "--overwrite"], in: recording)
        _ = try await Self.send([(.get, "/items?page=2", nil)], to: proxy)
        recorder.process.interrupt()
        let result = await recorder.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Replaced (--overwrite): Fixtures/server.yml:3"), "\(result.stdout)")
        #expect(!result.stdout.contains("Fixtures/server.yml:2"), "the page=1 route does not answer page=2")
        let server = try String(contentsOf: recording.appendingPathComponent("Fixtures/server.yml"), encoding: .utf8)
        #expect(server.contains(#"page: "1""#), "\(server)")
        #expect(try await CLI.run(["check"], directory: recording).status == 0)
        // Played back: page 2 as the target answered it, page 1 as before.
        let (player, playback) = try await Self.start(["serve"], in: recording)
        defer { player.process.interrupt() }
        let answers = try await Self.send([(.get, "/items?page=2", nil), (.get, "/items?page=1", nil)], to: playback)
        let expected = try await Self.send([(.get, "/items?page=2", nil)], to: target)
        #expect(answers.first?.body == expected.first?.body, "\(answers)")
        let pageOne = String(decoding: answers.last?.body ?? Data(), as: UTF8.self)
        #expect(pageOne.contains("100"), "\(answers)")
    }

    /// A target that answers garbage (not HTTP) gets the client a 502 saying why; nothing is recorded.
    @Test func aTargetThatAnswersGarbageGets502AndNothingIsWritten() async throws {
        let garbage = try GarbageServer()
        let recording = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        try FileManager.default.removeItem(at: recording.appendingPathComponent("Fixtures"))
        let (recorder, proxy) = try await Self.start(
            ["record", "--target", "http://127.0.0.1:\(garbage.port)"],
            in: recording
        )
        let answers = try await Self.send([(.get, "/items", nil)], to: proxy)
        recorder.process.interrupt()
        let result = await recorder.wait()
        garbage.stop()
        #expect(answers.first?.status == 502)
        let reason = String(decoding: answers.first?.body ?? Data(), as: UTF8.self)
        #expect(reason.contains("The target did not answer GET /items"), "\(reason)")
        #expect(result.stdout.contains("Nothing recorded; nothing written."), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: recording.appendingPathComponent("Fixtures").path))
    }

    /// `--port N` listens where asked; `--fixtures DIR` writes into that folder (which must exist: a usage
    /// error otherwise, before anything listens).
    @Test func portAndFixturesAreWhereItListensAndWrites() async throws {
        let (upstream, target) = try await Self.start(["serve"], in: try Self.upstream())
        defer { upstream.process.interrupt() }
        let recording = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        let missing = try await CLI.run(
            ["record", "--target", target, "--fixtures", "Recorded"],
            directory: recording
        )
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("Recorded"), "\(missing.stderr)")
        try FileManager.default.createDirectory(
            at: recording.appendingPathComponent("Recorded"),
            withIntermediateDirectories: true
        )
        let port = try GarbageServer.freePort()
        let (recorder, proxy) = try await Self.start(
            ["record", "--target", target, "--fixtures", "Recorded", "--port", "\(port)"],
            in: recording
        )
        #expect(proxy == "http://127.0.0.1:\(port)")
        _ = try await Self.send([(.get, "/items/2", nil)], to: proxy)
        recorder.process.interrupt()
        let result = await recorder.wait()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(
            atPath: recording.appendingPathComponent("Recorded").path
        )
        #expect(written.sorted() == ["items-2.json", "server.yml"], "\(written)")
    }
}

/// A TCP server on 127.0.0.1 that answers every connection with bytes that are not HTTP, then closes it.
final class GarbageServer: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let thread: Thread

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 8) == 0
                    && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let listening = socket
        thread = Thread {
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 4096)
                _ = read(connection, &request, request.count)
                let answer = Array("SSH-2.0-not-http \u{1}\u{2}\u{3}\r\n\r\n".utf8)
                _ = write(connection, answer, answer.count)
                close(connection)
            }
        }
        thread.start()
    }

    /// A port nothing listened on a moment ago (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let server = try GarbageServer()
        server.stop()
        return server.port
    }

    /// Stops accepting: the listening socket is shut down, which ends the thread's `accept`.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
