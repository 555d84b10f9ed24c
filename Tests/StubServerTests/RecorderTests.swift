import Foundation
import ObjectManager
import Testing

@testable import StubServer

/// What a recording writes, from exchanges alone: names, routes, sequences, redaction, limits, and how
/// the routes join an existing `server.yml`.
struct RecorderTests {
    static func request(_ method: String, _ target: String, headers: [HTTPHeader] = []) -> ForwardedRequest {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        return ForwardedRequest(
            method: method,
            path: parts[0],
            query: parts.count > 1 ? parts[1] : nil,
            headers: headers,
            body: Data()
        )
    }

    static func answer(_ status: Int, _ body: String, type: String? = "application/json", headers: [HTTPHeader] = [])
        -> ForwardedAnswer
    {
        ForwardedAnswer(
            status: status,
            headers: (type.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? []) + headers,
            body: Data(body.utf8)
        )
    }

    @Test(arguments: [
        ("GET", "/restaurants/1/reviews", "application/json", "restaurants-1-reviews.json"),
        ("POST", "/reviews", "application/json; charset=utf-8", "post-reviews.json"),
        ("GET", "/", "text/html", "index.html"),
        ("GET", "/search?q=caf%C3%A9&page=2", "application/problem+json", "search-q-caf-page-2.json"),
        ("GET", "/logo.png", "image/png", "logo.png"),
        ("GET", "/export", "application/x-unknown", "export.bin"),
        ("GET", "/a/../../etc/passwd", "text/plain", "a-..-..-etc-passwd.txt"),
    ])
    func aFixtureIsNamedFromItsRequestAndContentType(method: String, target: String, type: String, name: String) {
        var recorder = Recorder(options: Recorder.Options(), existingFiles: [])
        let line = recorder.add(Self.request(method, target), answer: Self.answer(200, "x", type: type))
        #expect(line.hasSuffix("  Fixtures/\(name)"), "\(line)")
        #expect(!line.dropFirst(line.count - name.count).contains("/"))
    }

    @Test func anExistingFileOrAnotherRecordedBodyGetsTheNextNumber() throws {
        var recorder = Recorder(options: Recorder.Options(), existingFiles: ["items.json"])
        #expect(recorder.add(Self.request("GET", "/items"), answer: Self.answer(200, "[1]")).hasSuffix("items-2.json"))
        #expect(recorder.add(Self.request("GET", "/items"), answer: Self.answer(200, "[2]")).hasSuffix("items-3.json"))
        #expect(recorder.add(Self.request("GET", "/items"), answer: Self.answer(200, "[1]")).hasSuffix("items-2.json"))
        var overwriting = Recorder(options: Recorder.Options(overwrite: true), existingFiles: ["items.json"])
        #expect(overwriting.add(Self.request("GET", "/items"), answer: Self.answer(200, "[1]")).hasSuffix("items.json"))
    }

    @Test func queriesBecomeWhenAndDifferingAnswersASequence() throws {
        var recorder = Recorder(options: Recorder.Options(), existingFiles: [])
        _ = recorder.add(Self.request("GET", "/items"), answer: Self.answer(200, "[]"))
        _ = recorder.add(Self.request("GET", "/items?page=2&sort=name"), answer: Self.answer(200, "[2]"))
        _ = recorder.add(Self.request("GET", "/items?page=2"), answer: Self.answer(200, "[3]"))
        _ = recorder.add(Self.request("GET", "/items?page=2"), answer: Self.answer(200, "[3]"))
        _ = recorder.add(Self.request("POST", "/jobs"), answer: Self.answer(503, "busy", type: "text/plain"))
        _ = recorder.add(Self.request("POST", "/jobs"), answer: Self.answer(202, "", type: nil))
        let output = try recorder.output(serverText: nil, table: nil, serverFile: "Fixtures/server.yml", source: "test")
        #expect(
            output.serverText == """
                routes:
                  # Recorded from test.
                  - path: "/items"
                    method: GET
                    when: { query: { "page": "2", "sort": "name" } }
                    status: 200
                    fixture: "items-page-2-sort-name.json"
                    headers: { "Content-Type": "application/json" }
                  - path: "/items"
                    method: GET
                    when: { query: { "page": "2" } }
                    status: 200
                    fixture: "items-page-2.json"
                    headers: { "Content-Type": "application/json" }
                  - path: "/items"
                    method: GET
                    status: 200
                    fixture: "items.json"
                    headers: { "Content-Type": "application/json" }
                  - path: "/jobs"
                    method: POST
                    responses:
                      - { status: 503, fixture: "post-jobs.txt", headers: { "Content-Type": "text/plain" } }
                      - { status: 202, body: "" }

                """
        )
        #expect(
            output.files.map(\.name) == [
                "items-page-2-sort-name.json", "items-page-2.json", "items.json", "post-jobs.txt",
            ]
        )
        #expect(output.added == 4)
        let table = try ServerRouteTable.parse(yaml: output.serverText, file: "Fixtures/server.yml")
        #expect(table.routes.count == 4)
    }

    @Test func onlyHeadersThatShapeTheAnswerAreWrittenAndNeverASecret() throws {
        var recorder = Recorder(
            options: Recorder.Options(redactedHeaders: ["ETag"], redactedKeys: ["token", "pin"]),
            existingFiles: []
        )
        let answer = Self.answer(
            201,
            #"{"user": {"token": "t-1", "pins": [{"pin": 1234}], "name": "Ada"}}"#,
            headers: [
                HTTPHeader(name: "Date", value: "Fri, 27 Nov 2026 01:00:00 GMT"),
                HTTPHeader(name: "Server", value: "nginx"), HTTPHeader(name: "Set-Cookie", value: "s=1"),
                HTTPHeader(name: "ETag", value: "\"abc\""), HTTPHeader(name: "Location", value: "/users/1"),
            ]
        )
        let line = recorder.add(
            Self.request("POST", "/users", headers: [HTTPHeader(name: "Authorization", value: "Bearer x")]),
            answer: answer
        )
        #expect(line == "POST /users → 201  Fixtures/post-users.json")
        let output = try recorder.output(serverText: nil, table: nil, serverFile: "Fixtures/server.yml", source: "test")
        #expect(output.serverText.contains(#"headers: { "Content-Type": "application/json", "Location": "/users/1" }"#))
        for secret in ["Date", "nginx", "Set-Cookie", "abc", "Bearer"] { #expect(!output.serverText.contains(secret)) }
        let body = try JSONValue(parsing: try #require(output.files.first?.data))
        #expect(
            body
                == JSONValue.object([
                    "user": .object([
                        "token": "REDACTED", "pins": .array([.object(["pin": "REDACTED"])]), "name": "Ada",
                    ])
                ])
        )
        #expect(recorder.redactedHeaderCounts == ["Authorization": 1, "Set-Cookie": 1, "ETag": 1])
        #expect(recorder.redactedKeyCounts == ["token": 1, "pin": 1])
    }

    /// `--redact-query`: the parameter is left out of the fixture's name and the route's `when:` (any value of
    /// it plays back), shown `REDACTED` in the line, counted; `--redact-json` reads a JSON body whatever its
    /// Content-Type says.
    @Test func aRedactedQueryParameterIsNeverWrittenNorShown() throws {
        var recorder = Recorder(
            options: Recorder.Options(redactedKeys: ["token"], redactedQueryNames: ["api_key"]),
            existingFiles: []
        )
        let first = recorder.add(
            Self.request("GET", "/things?api_key=SEKRIT1&page=2"),
            answer: Self.answer(200, #"{"token": "SEKRIT-T", "n": 2}"#, type: "text/plain")
        )
        #expect(first == "GET /things?api_key=REDACTED&page=2 → 200  Fixtures/things-page-2.txt")
        _ = recorder.add(
            Self.request("GET", "/things?api_key=SEKRIT2"),
            answer: Self.answer(200, #"[{"token": 1}]"#, type: nil)
        )
        let output = try recorder.output(serverText: nil, table: nil, serverFile: "Fixtures/server.yml", source: "test")
        let written =
            output.serverText + output.files.map { $0.name + String(decoding: $0.data, as: UTF8.self) }.joined()
        for secret in ["SEKRIT", "api_key"] { #expect(!written.contains(secret), "\(written)") }
        #expect(output.serverText.contains(#"when: { query: { "page": "2" } }"#), "\(output.serverText)")
        #expect(recorder.redactedQueryCounts == ["api_key": 2])
        #expect(recorder.redactedKeyCounts == ["token": 2])
    }

    @Test func routesJoinAnExistingFileAfterItsOwnKeepingItsComments() throws {
        let existing = """
            # Hand-written.
            routes:
                # Indented by four.
                - { path: /health, body: ok }

            """
        let table = try ServerRouteTable.parse(yaml: existing, file: "Fixtures/server.yml")
        var recorder = Recorder(options: Recorder.Options(), existingFiles: [])
        _ = recorder.add(Self.request("GET", "/health"), answer: Self.answer(200, "fine", type: "text/plain"))
        _ = recorder.add(Self.request("GET", #"/we"ird\path"#), answer: Self.answer(200, "{}"))
        let output = try recorder.output(
            serverText: existing,
            table: table,
            serverFile: "Fixtures/server.yml",
            source: "test"
        )
        #expect(output.kept == ["GET /health: Fixtures/server.yml:4 already answers it (--overwrite replaces it)"])
        #expect(output.serverText.hasPrefix(existing))
        #expect(output.serverText.contains("\n    - path: \"/we\\\"ird\\\\path\"\n"), "\(output.serverText)")
        #expect(try ServerRouteTable.parse(yaml: output.serverText, file: "Fixtures/server.yml").routes.count == 2)
    }

    @Test func aFlowListOfRoutesIsRefusedUnlessEmpty() throws {
        var recorder = Recorder(options: Recorder.Options(), existingFiles: [])
        _ = recorder.add(Self.request("GET", "/a"), answer: Self.answer(200, "{}"))
        let empty = try recorder.output(serverText: "routes: []\n", table: nil, serverFile: "s.yml", source: "t")
        #expect(empty.serverText.hasPrefix("routes:\n  # Recorded from t.\n"))
        #expect(throws: Recorder.OutputError.self) {
            _ = try recorder.output(
                serverText: "routes: [ { path: /b } ]\n",
                table: nil,
                serverFile: "s.yml",
                source: "t"
            )
        }
    }

    @Test func beyondTheLimitsAnExchangeIsAnsweredButNotRecorded() {
        var recorder = Recorder(options: Recorder.Options(), existingFiles: [])
        for index in 0..<Recorder.Limits.requests {
            _ = recorder.add(Self.request("GET", "/items/\(index)"), answer: Self.answer(200, ""))
        }
        let line = recorder.add(Self.request("GET", "/one-more"), answer: Self.answer(200, ""))
        #expect(line == "GET /one-more → 200  not recorded: 10000 distinct requests are recorded at most")
        #expect(recorder.notRecorded == 1)
        #expect(recorder.requestCount == Recorder.Limits.requests)
        for _ in 0..<Recorder.Limits.answersPerRequest {
            _ = recorder.add(Self.request("GET", "/items/0"), answer: Self.answer(200, ""))
        }
        #expect(recorder.notRecorded == 2)
    }

    /// Bodies are recorded up to ``Recorder/Limits/bytes`` in all: the one that would pass it is answered
    /// but not recorded, and a smaller one after it still is.
    @Test func bodiesAreRecordedUpToTheirByteLimit() {
        var recorder = Recorder(options: Recorder.Options(), existingFiles: [])
        let large = Data(count: 100 << 20)
        let answer = ForwardedAnswer(status: 200, headers: [], body: large)
        #expect(recorder.add(Self.request("GET", "/a"), answer: answer).hasSuffix("Fixtures/a.bin"))
        #expect(recorder.add(Self.request("GET", "/b"), answer: answer).hasSuffix("Fixtures/b.bin"))
        let line = recorder.add(Self.request("GET", "/c"), answer: answer)
        #expect(line == "GET /c → 200  not recorded: 256 MiB of bodies are recorded at most")
        #expect(recorder.add(Self.request("GET", "/d"), answer: Self.answer(200, "[1]")).hasSuffix("d.json"))
        #expect(recorder.notRecorded == 1)
        #expect(recorder.requestCount == 3)
    }
}
