import AsyncHTTPClient
import Foundation
import NIOCore
import ObjectManager
import StubServer
import Synchronization
import TestSupport
import Testing

/// The live server on a free loopback port: routes, static fixtures, traversal, journal, delay, faults, stop.
struct StubServerTests {
    /// A running server over a fresh fixture folder, stopped by `finish()`.
    final class Running {
        let temp: TemporaryFolder
        let fixtures: URL
        let server: StubServer
        let url: URL
        var port: Int { url.port ?? 0 }

        init(
            _ yaml: String = "routes: []",
            files: [String: String] = [:],
            limits: StubServerLimits = .standard,
            forwarding: Forwarding? = nil
        ) async throws {
            temp = try TemporaryFolder()
            fixtures = try temp.folder("Fixtures")
            for (path, contents) in files {
                try temp.write(contents, to: "Fixtures/" + path)
            }
            let table = try ServerRouteTable.parse(yaml: yaml, file: "server.yml", fixtures: fixtures)
            server = StubServer(fixtures: fixtures, routes: table, limits: limits, forwarding: forwarding)
            url = try await server.start()
        }

        func finish() async {
            await server.stop()
        }

        /// Sends a request through AsyncHTTPClient and returns the response with its whole body.
        func request(
            _ path: String,
            method: String = "GET",
            headers: [(String, String)] = [],
            body: String? = nil,
            timeout: TimeAmount = .seconds(60)
        ) async throws -> (response: HTTPClientResponse, body: String) {
            var request = HTTPClientRequest(url: url.absoluteString + path)
            request.method = .init(rawValue: method)
            for (name, value) in headers {
                request.headers.add(name: name, value: value)
            }
            if let body {
                request.body = .bytes(ByteBuffer(string: body))
            }
            let response = try await HTTPClient.shared.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return (response, String(buffer: bytes))
        }
    }

    static let routes = """
        routes:
          - { path: /review, method: POST, status: 201, fixture: review.json }
          - { path: /422, status: 422, json: { errors: { code: 12345, message: Invalid object. } } }
          - { path: /500, status: 500, body: "" }
          - { path: /503, status: 503, body: "<html>Service unavailable.</html>", headers: { Content-Type: text/html } }
          - { path: "/articles/:category/:id", fixture: article.json, headers: { X-Stub: article } }
          - { path: /text, body: plain words }
          - { path: /page, fixture: page.html }
          - { path: /blob, fixture: data.bin }
        """
    static let files = [
        "review.json": #"{"id": 1}"#,
        "article.json": #"{"title": "Hello"}"#,
        "page.html": "<p>hi</p>",
        "data.bin": "\u{1}\u{2}",
        "static/list.json": "[1, 2, 3]",
        "notes.txt": "notes",
    ]

    @Test func startsOnAFreeLoopbackPort() async throws {
        let running = try await Running()
        #expect(running.url.host == "127.0.0.1")
        #expect(running.port > 0)
        #expect(running.server.baseURL == running.url)
        #expect(try await running.server.start() == running.url)
        let other = try await Running()
        #expect(other.port != running.port)
        await other.finish()
        await running.finish()
    }

    @Test func answersFromTheRouteTable() async throws {
        let running = try await Running(Self.routes, files: Self.files)
        let review = try await running.request("/review", method: "POST", body: "{}")
        #expect(review.response.status.code == 201)
        #expect(review.body == #"{"id": 1}"#)
        #expect(review.response.headers.first(name: "content-type") == "application/json")

        let invalid = try await running.request("/422")
        #expect(invalid.response.status.code == 422)
        #expect(invalid.body == #"{"errors":{"code":12345,"message":"Invalid object."}}"#)
        #expect(invalid.response.headers.first(name: "content-type") == "application/json")

        let failure = try await running.request("/500", method: "DELETE")
        #expect(failure.response.status.code == 500)
        #expect(failure.body.isEmpty)

        let unavailable = try await running.request("/503")
        #expect(unavailable.response.status.code == 503)
        #expect(unavailable.body == "<html>Service unavailable.</html>")
        #expect(unavailable.response.headers["content-type"] == ["text/html"])

        let article = try await running.request("/articles/news/7")
        #expect(article.response.status.code == 200)
        #expect(article.body == #"{"title": "Hello"}"#)
        #expect(article.response.headers.first(name: "x-stub") == "article")

        #expect(try await running.request("/text").response.headers.first(name: "content-type") == "text/plain")
        #expect(try await running.request("/page").response.headers.first(name: "content-type") == "text/html")
        let blob = try await running.request("/blob")
        #expect(blob.response.headers.first(name: "content-type") == "application/octet-stream")
        await running.finish()
    }

    @Test func aFixtureGoneAtRequestTimeIsA404() async throws {
        let temp = try TemporaryFolder()
        let fixtures = try temp.folder("Fixtures")
        let server = StubServer(
            fixtures: fixtures,
            routes: ServerRouteTable(routes: [ServerRoute(path: "/gone", content: .fixture("gone.json"))])
        )
        let url = try await server.start()
        let reply = try await RawHTTPClient.get("/gone", port: url.port ?? 0)
        #expect(reply.status == 404)
        #expect(reply.text.hasSuffix(#"{"error":"Fixture 'gone.json' not found in 'Fixtures'."}"#))
        await server.stop()
    }

    @Test func aFixtureEditedOrRemovedWhileServingIsServedAsItIsNow() async throws {
        let running = try await Running(Self.routes, files: Self.files)
        #expect(try await running.request("/review", method: "POST").body == #"{"id": 1}"#)
        #expect(try await running.request("/static/list.json").body == "[1, 2, 3]")
        // Served again from the cache, then edited (a different size), then replaced by a new file.
        #expect(try await running.request("/review", method: "POST").body == #"{"id": 1}"#)
        try running.temp.write(#"{"id": 22}"#, to: "Fixtures/review.json")
        #expect(try await running.request("/review", method: "POST").body == #"{"id": 22}"#)
        let replacement = running.fixtures.appendingPathComponent("new-list.json")
        try Data("[4]".utf8).write(to: replacement)
        #expect(rename(replacement.path, running.fixtures.appendingPathComponent("static/list.json").path) == 0)
        #expect(try await running.request("/static/list.json").body == "[4]")
        try FileManager.default.removeItem(at: running.fixtures.appendingPathComponent("review.json"))
        #expect(try await running.request("/review", method: "POST").response.status.code == 404)
        await running.finish()
    }

    @Test func methodMustMatchWhenGiven() async throws {
        let running = try await Running(Self.routes, files: Self.files)
        let get = try await running.request("/review")
        #expect(get.response.status.code == 404)
        #expect(
            get.body
                == #"{"error":"No route or fixture for GET /review; nearest POST /review at server.yml:2: method differs","nearest":[{"at":"server.yml:2","route":"POST /review","why":["method differs"]}]}"#
        )
        await running.finish()
    }

    @Test func servesStaticFixturesAndAnswers404InJSON() async throws {
        let running = try await Running(files: Self.files)
        let list = try await running.request("/static/list.json")
        #expect(list.response.status.code == 200)
        #expect(list.body == "[1, 2, 3]")
        #expect(list.response.headers.first(name: "content-type") == "application/json")
        let notes = try await running.request("/notes.txt")
        #expect(notes.response.headers.first(name: "content-type") == "text/plain")

        let missing = try await running.request("/x")
        #expect(missing.response.status.code == 404)
        #expect(missing.body == #"{"error":"No route or fixture for GET /x"}"#)
        #expect(missing.response.headers.first(name: "content-type") == "application/json")
        let folder = try await running.request("/static")
        #expect(folder.response.status.code == 404)
        await running.finish()
    }

    @Test func neverServesAFileOutsideTheFixtureFolder() async throws {
        let running = try await Running(files: ["inside.json": "{}"])
        let secret = "TOP-SECRET-\(UUID().uuidString)"
        let secretFile = try running.temp.write(secret, to: "secret")
        try running.temp.write(secret, to: "Fixtures-evil/x")
        try FileManager.default.createSymbolicLink(
            at: running.fixtures.appending(path: "link"),
            withDestinationURL: secretFile
        )
        try FileManager.default.createSymbolicLink(
            at: running.fixtures.appending(path: "linked-folder"),
            withDestinationURL: running.temp.url
        )
        let attempts = [
            "/../secret", "/%2e%2e/secret", "/%2E%2E%2Fsecret", "/..%2Fsecret", "/inside.json/../../secret",
            "//\(secretFile.path)", "\(secretFile.path)", "/link", "/linked-folder/secret", "/../Fixtures-evil/x",
            "/./link", "/%2Flink", "/.%2e/secret",
        ]
        for target in attempts {
            let reply = try await RawHTTPClient.get(target, port: running.port)
            #expect(reply.status == 404, "\(target) answered \(reply.status ?? 0)")
            #expect(!reply.text.contains(secret), "\(target) leaked the secret")
        }
        let inside = try await RawHTTPClient.get("/inside.json", port: running.port)
        #expect(inside.status == 200)
        await running.finish()
    }

    /// `--record`'s scope: a request no route and no fixture file answers goes to the other server; the
    /// others never do. Each request is journaled with the route that answered it.
    @Test func onlyUnmatchedRequestsAreForwardedAndEachIsJournaledWithItsRoute() async throws {
        let forwarded = Mutex<[String]>([])
        let forwarding = Forwarding(scope: .unmatched) { request in
            forwarded.withLock { $0.append(request.method + " " + request.target) }
            return ForwardedAnswer(
                status: 299,
                headers: [HTTPHeader(name: "X-From", value: "upstream")],
                body: Data("up".utf8)
            )
        }
        let running = try await Running(
            Self.routes + "\n  - { path: /off, body: test, contract: off }\n",
            files: Self.files.merging(["static.json": "{}"]) { $1 },
            forwarding: forwarding
        )
        let routed = try await running.request("/review", method: "POST", body: "{}")
        #expect(routed.response.status.code == 201)
        let file = try await running.request("/static.json")
        #expect(file.response.status.code == 200)
        let off = try await running.request("/off")
        #expect(off.body == "test")
        let missing = try await running.request("/missing?q=1", method: "PUT", body: "x")
        #expect(missing.response.status.code == 299)
        #expect(missing.body == "up")
        #expect(missing.response.headers.first(name: "x-from") == "upstream")
        #expect(forwarded.withLock { $0 } == ["PUT /missing?q=1"])
        let entries = running.server.journal.entries
        #expect(
            entries.map(\.route) == [
                "server.yml:2", nil, "server.yml:\(Self.routes.split(separator: "\n").count + 1)", nil,
            ]
        )
        #expect(entries.map(\.heldToContract) == [true, true, false, true])
        await running.finish()
    }

    @Test func theSendingStepIsTakenOffTheRequestAndKeptOnItsJournalEntry() async throws {
        let forwarded = Mutex<[HTTPHeader]>([])
        let forwarding = Forwarding(scope: .unmatched) { request in
            forwarded.withLock { $0 = request.headers }
            return ForwardedAnswer(status: 200, headers: [], body: Data())
        }
        let running = try await Running(Self.routes, files: Self.files, forwarding: forwarding)
        _ = try await running.request("/422", headers: [("X-Scenario-Run-Origin", "7.3"), ("X-Other", "kept")])
        _ = try await running.request("/missing", headers: [("x-scenario-run-origin", "7.4")])
        _ = try await running.request("/422", headers: [("x-scenario-run-origin", "not an origin")])
        let entries = running.server.journal.entries
        #expect(
            entries.map(\.origin) == [
                RequestOrigin(scenarioTry: 7, step: 3), RequestOrigin(scenarioTry: 7, step: 4), nil,
            ]
        )
        for entry in entries {
            #expect(!entry.headers.contains { $0.name.lowercased() == RequestOrigin.header }, "\(entry.headers)")
        }
        #expect(entries[0].headers.contains(HTTPHeader(name: "X-Other", value: "kept")))
        #expect(!forwarded.withLock { $0 }.contains { $0.name.lowercased() == RequestOrigin.header })
        await running.finish()
    }

    @Test func journalRecordsRequestsAndClears() async throws {
        let running = try await Running(Self.routes, files: Self.files)
        let journal = running.server.journal
        #expect(journal.entries.isEmpty)
        _ = try await running.request(
            "/review?draft=1&x=%20",
            method: "POST",
            headers: [("X-Token", "abc"), ("Content-Type", "application/json")],
            body: #"{"title": "Great"}"#
        )
        _ = try await running.request("/missing")
        let entries = journal.entries
        #expect(entries.map(\.method) == ["POST", "GET"])
        #expect(entries.map(\.path) == ["/review", "/missing"])
        #expect(entries.first?.query == "draft=1&x=%20")
        #expect(entries.last?.query == nil)
        #expect(entries.first?.header("x-token") == "abc")
        #expect(entries.first?.headers.contains(HTTPHeader(name: "Content-Type", value: "application/json")) == true)
        #expect(entries.first?.bodyText() == #"{"title": "Great"}"#)
        #expect(journal.entries(method: "post", path: "/review").count == 1)
        #expect(journal.entries(method: nil, path: "/missing").count == 1)
        #expect(journal.entries(method: "GET", path: "/review").isEmpty)
        journal.clear()
        #expect(journal.entries.isEmpty)
        await running.finish()
    }

    @Test func delayHoldsTheAnswer() async throws {
        let running = try await Running("routes:\n  - { path: /slow, body: late, delay: 0.2 }\n")
        let clock = ContinuousClock()
        let start = clock.now
        let slow = try await running.request("/slow")
        #expect(clock.now - start >= .milliseconds(200))
        #expect(slow.body == "late")
        await running.finish()
    }

    @Test func connectionResetIsAResetWithoutResponse() async throws {
        let running = try await Running("routes:\n  - { path: /dropped, fault: connection reset }\n")
        let reply = try await RawHTTPClient.get("/dropped", port: running.port)
        #expect(reply.bytes.isEmpty)
        #expect(reply.wasReset, "expected ECONNRESET, got \(String(describing: reply.error))")
        await #expect(throws: (any Error).self) { _ = try await running.request("/dropped") }
        #expect(running.server.journal.entries(method: "GET", path: "/dropped").count >= 2)
        await running.finish()
    }

    @Test func emptyResponseClosesWithoutBytes() async throws {
        let running = try await Running("routes:\n  - { path: /empty, fault: empty response }\n")
        let reply = try await RawHTTPClient.get("/empty", port: running.port)
        #expect(reply.bytes.isEmpty)
        #expect(reply.error == nil, "expected a clean close, got \(String(describing: reply.error))")
        await #expect(throws: (any Error).self) { _ = try await running.request("/empty") }
        await running.finish()
    }

    @Test func timeoutNeverAnswersUntilTheClientGivesUp() async throws {
        let running = try await Running("routes:\n  - { path: /hang, fault: timeout }\n")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await running.request("/hang", timeout: .milliseconds(300))
            Issue.record("The hanging route answered")
        } catch let error as HTTPClientError {
            #expect(error == .deadlineExceeded || error == .readTimeout, "\(error)")
        }
        #expect(clock.now - start >= .milliseconds(300))
        await running.finish()
    }

    @Test func stopClosesHeldConnectionsPromptly() async throws {
        // A grace period of ten minutes: a stop that forgot the held connection would wait for it,
        // so a stop well within it can only have closed the connection itself, however loaded the
        // machine is.
        var limits = StubServerLimits.standard
        limits.stopGracePeriod = .seconds(600)
        let running = try await Running("routes:\n  - { path: /hang, fault: timeout }\n", limits: limits)
        let port = running.port
        let hanging = Task { try await RawHTTPClient.get("/hang", port: port) }
        try await running.server.journal.waitForEntries(1)
        let clock = ContinuousClock()
        let start = clock.now
        await running.finish()
        #expect(clock.now - start < .seconds(300), "closed by the stop, not by the grace period's cancellation")
        let reply = try await hanging.value
        #expect(reply.bytes.isEmpty)
    }

    @Test func stopIsGracefulIdempotentAndFreesThePort() async throws {
        let running = try await Running("routes:\n  - { path: /slow, body: done, delay: 0.3 }\n")
        let port = running.port
        let inFlight = Task { try await RawHTTPClient.get("/slow", port: port) }
        try await running.server.journal.waitForEntries(1)
        await running.server.stop()
        let reply = try await inFlight.value
        #expect(reply.status == 200)
        #expect(reply.text.hasSuffix("done"))
        #expect(running.server.baseURL == nil)
        await running.server.stop()
        // The port is free: connecting fails — unless another test's server has since been given the
        // same free port, which then is not this one (it has no /slow route).
        if let late = try? await RawHTTPClient.get("/slow", port: port) {
            #expect(!late.text.hasSuffix("done"), "the stopped server still answered")
        }
    }

    @Test func aTakenPortIsAnErrorAndTheServerCanRetry() async throws {
        let first = try await Running()
        let second = StubServer(fixtures: first.fixtures, routes: ServerRouteTable(routes: []), port: first.port)
        do {
            _ = try await second.start()
            Issue.record("Two servers listened on port \(first.port)")
        } catch let error as StubServerError {
            guard case .cannotListen(let port, _) = error else {
                Issue.record("Unexpected error \(error)")
                return
            }
            #expect(port == first.port)
            #expect(error.description.hasPrefix("Cannot listen on 127.0.0.1:\(first.port): "))
        }
        #expect(second.baseURL == nil)
        await first.finish()
        // The port may briefly stay taken while the first server's sockets close: retry until a deadline.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        var url: URL?
        while url == nil {
            do {
                url = try await second.start()
            } catch StubServerError.cannotListen where clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(url?.port == first.port)
        await second.stop()
    }

    @Test func journalChangeHookFiresPerRequest() async throws {
        let running = try await Running()
        let journal = running.server.journal
        let counter = Counter()
        let observation = journal.onChange { counter.increment() }
        _ = try await running.request("/a")
        _ = try await running.request("/b")
        #expect(counter.value == 2)
        observation.cancel()
        _ = try await running.request("/c")
        #expect(counter.value == 2)
        #expect(journal.entries.count == 3)
        await running.finish()
    }

    /// A worker's warm-up while its run is on the way: a server of its own started on loopback, and one request
    /// sent to it through the object manager's transport and answered (no route: 404); a warm-up request nobody
    /// answers is no status, not an error.
    @Test func aWarmUpServerAnswersOneRequestThroughTheTransport() async throws {
        let warmUp = try #require(await StubServer.startedForWarmUp())
        #expect(warmUp.url.host == "127.0.0.1")
        // A debug build among a thousand tests on two cores: its first exchange may take seconds.
        #expect(await NIOHTTPTransport.warmUp(warmUp.url, timeout: .seconds(60)) == 404)
        await warmUp.server.stop()
        #expect(await NIOHTTPTransport.warmUp(URL(string: "http://127.0.0.1:1/")!) == nil)
    }
}
