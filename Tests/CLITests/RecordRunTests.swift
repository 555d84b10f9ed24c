import Foundation
import ObjectManager
import TestSupport
import Testing

/// `--record URL` on a run, an https target, and Ctrl-C while a request is on its way — through the built
/// binary, against real servers on loopback.
@Suite(.serialized)
struct RecordRunTests {
    /// Scenarios of the demo app: two ask what no route answers, one is answered by the project's own route.
    static let scenarios = """
        scenarios:
          - scenario: The list from the real API
            steps:
              - get objects: { path: /restaurants }
              - expect response: { status: 200 }
              - expect entities: { entity: Restaurant, count: 20 }
          - scenario: The second page from the real API
            steps:
              - get objects: { path: /restaurants, parameters: { page: 2 } }
              - expect response: { status: 200 }
              - expect entities: { entity: Restaurant, count: 5 }
          - scenario: Reviews answered by the project's own route
            steps:
              - create from factory: { factory: restaurant, properties: { restaurantID: 42, name: Bistro }, as: bistro }
              - get objects: { relationship: reviews, of: bistro }
              - expect response: { status: 200 }
              - expect entities: { entity: Review, count: 0 }

        """

    static let oneScenario = ["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"]

    static let ownRoutes = """
        # The project's own routes: kept, first, as they are.
        routes:
          - { path: "/restaurants/:restaurantID/reviews", method: GET, json: [] }

        """

    @Test func aRunWithRecordFillsTheGapsAndTheNextRunPlaysThemBack() async throws {
        // The real API: the demo's fixtures, served.
        let (upstream, target) = try await RecordCLITests.start(["serve"], in: try CLI.project([:]))
        let project = try CLI.project([
            "Scenarios/api.yml": Self.scenarios,
            "scenario-run.yml": "unmatched requests: fail\n",
        ])
        let fixtures = project.appendingPathComponent("Fixtures")
        try FileManager.default.removeItem(at: fixtures)
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try Self.ownRoutes.write(to: fixtures.appendingPathComponent("server.yml"), atomically: true, encoding: .utf8)

        // Without --record, what no route answers still fails the run.
        let before = try await CLI.run(["--ci"], directory: project)
        #expect(before.status == 1, "\(before.stdout)\(before.stderr)")
        #expect(before.stdout.contains("1 passed, 2 failed"), "\(before.stdout)")

        let recorded = try await CLI.run(["--ci", "--record", target], directory: project)
        upstream.process.interrupt()
        _ = await upstream.wait()
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        #expect(recorded.stdout.contains("3 passed, 0 failed"), "\(recorded.stdout)")
        #expect(recorded.stdout.contains("Recording from \(target):"), "\(recorded.stdout)")
        #expect(recorded.stdout.contains("  GET /restaurants → 200  Fixtures/restaurants.json"), "\(recorded.stdout)")
        #expect(
            recorded.stdout.contains(
                "Recorded 2 requests from \(target): 2 routes added to Fixtures/server.yml, 2 fixture files written."
            ),
            "\(recorded.stdout)"
        )
        // The bytes the real API answered, as they were.
        for name in ["restaurants.json", "restaurants-page-2.json"] {
            let written = try Data(contentsOf: fixtures.appendingPathComponent(name))
            let served = try Data(contentsOf: CLI.repositoryRoot.appendingPathComponent("Fixtures/\(name)"))
            #expect(written == served, "\(name)")
        }
        let server = try String(contentsOf: fixtures.appendingPathComponent("server.yml"), encoding: .utf8)
        #expect(server.hasPrefix(Self.ownRoutes), "\(server)")
        #expect(!server.contains("/reviews\", method: GET, fixture"), "answered by a route: never forwarded\n\(server)")

        // The real API is gone: the next run plays everything back, with unmatched requests failing.
        let replayed = try await CLI.run(["--ci"], directory: project)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("3 passed, 0 failed"), "\(replayed.stdout)")
        #expect(!replayed.stdout.contains("Recording"), "\(replayed.stdout)")
        let check = try await CLI.run(["check"], directory: project)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test(arguments: [
        (["--record", "ftp://example.com"], "--record takes an http or https URL"),
        (["--record", "http://127.0.0.1:1", "--jobs", "2"], "--record runs the scenarios in this process"),
        (["--record", "http://127.0.0.1:1", "--watch"], "leave out --watch"),
        (["--record", "http://127.0.0.1:1", "--list"], "--list runs nothing"),
        (["--redact", "X-Key"], "give --record"),
        (["--overwrite"], "give --record"),
    ])
    func recordOptionsThatCannotWorkAreUsageErrors(arguments: [String], message: String) async throws {
        let result = try await CLI.run(["--ci"] + arguments, directory: try CLI.project([:]))
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func anHTTPSTargetIsRecordedWhenItsCertificateIsTrusted() async throws {
        let upstream = try await TestUpstream.start(tls: true)
        let project = try CLI.project(Self.oneScenario)
        let fixtures = project.appendingPathComponent("Fixtures")
        try FileManager.default.removeItem(at: fixtures)

        // The system's CAs do not know the test CA: a 502 that says so, and nothing written.
        let (untrusting, untrustingProxy) = try await RecordCLITests.start(
            ["record", "--target", upstream.url],
            in: project
        )
        let refused = try await RecordCLITests.send([(.get, "/greeting", nil)], to: untrustingProxy)
        #expect(refused.first?.status == 502)
        let reason = String(decoding: refused.first?.body ?? Data(), as: UTF8.self)
        #expect(reason.lowercased().contains("certificate"), "\(reason)")
        untrusting.process.interrupt()
        #expect(await untrusting.wait().stdout.contains("Nothing recorded; nothing written."))

        // SSL_CERT_FILE names the CA, as for curl and OpenSSL.
        let ca = TestUpstream.certificates.appendingPathComponent("ca.pem").path
        let process = try CLI.Running(
            ["record", "--target", upstream.url],
            directory: project,
            environment: ["SSL_CERT_FILE": ca]
        )
        #expect(await eventually(timeout: .seconds(30)) { RecordCLITests.listening(process.stdout) != nil })
        let proxy = try #require(RecordCLITests.listening(process.stdout), "\(process.stderr)")
        let answers = try await RecordCLITests.send([(.get, "/greeting", nil)], to: proxy)
        #expect(answers.first?.status == 200)
        #expect(answers.first?.body == TestUpstream.greeting)
        process.process.interrupt()
        let result = await process.wait()
        await upstream.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("GET /greeting → 200  Fixtures/greeting.json"), "\(result.stdout)")
        #expect(try Data(contentsOf: fixtures.appendingPathComponent("greeting.json")) == TestUpstream.greeting)

        // A file that cannot be read is said before anything is forwarded.
        let unreadable = try await CLI.run(
            ["record", "--target", upstream.url],
            directory: project,
            environment: ["SSL_CERT_FILE": "/nonexistent/ca.pem"]
        )
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("SSL_CERT_FILE names '/nonexistent/ca.pem', which cannot be read."))
    }

    @Test func ctrlCWithARequestOnItsWayWritesWhatWasRecordedAndEnds() async throws {
        let upstream = try await TestUpstream.start(tls: false)
        let project = try CLI.project(Self.oneScenario)
        let fixtures = project.appendingPathComponent("Fixtures")
        try FileManager.default.removeItem(at: fixtures)
        let (recorder, proxy) = try await RecordCLITests.start(["record", "--target", upstream.url], in: project)
        #expect(try await RecordCLITests.send([(.get, "/greeting", nil)], to: proxy).first?.status == 200)

        // A request the target holds open: on its way when Ctrl-C comes.
        let held = Task { try? await RecordCLITests.send([(.get, "/hang", nil)], to: proxy) }
        var arrivals = upstream.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        recorder.process.interrupt()
        let result = await recorder.wait()
        held.cancel()
        await upstream.stop()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("Recorded 1 request from \(upstream.url): 1 route added to Fixtures/server.yml"),
            "\(result.stdout)"
        )
        let written = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        #expect(written == ["greeting.json", "server.yml"], "the held request is not recorded; no temporary file")
        let check = try await CLI.run(["check"], directory: project)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// Ctrl-C during a `--record` run: what was recorded before it is written, and the run ends with its
    /// report (the scenario under way failed, the rest skipped).
    @Test func ctrlCDuringARecordingRunWritesWhatWasRecorded() async throws {
        let (upstream, target) = try await RecordCLITests.start(["serve"], in: try CLI.project([:]))
        defer { upstream.process.interrupt() }
        let project = try CLI.project([
            "Scenarios/api.yml": """
            scenarios:
              - scenario: The list from the real API
                steps:
                  - get objects: { path: /restaurants }
                  - expect response: { status: 200 }
              - scenario: Long
                steps:
                  - wait: 60
              - scenario: Never started
                steps: [succeed]

            """
        ])
        let fixtures = project.appendingPathComponent("Fixtures")
        try FileManager.default.removeItem(at: fixtures)
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try Self.ownRoutes.write(to: fixtures.appendingPathComponent("server.yml"), atomically: true, encoding: .utf8)
        let events = project.appendingPathComponent("events.jsonl")
        let running = try CLI.Running(
            ["--ci", "--record", target, "--events", events.path],
            directory: project,
            environment: [:]
        )
        #expect(await eventually { CLI.eventsSayStarted("Long", file: "Scenarios/api.yml", in: events) })
        running.process.interrupt()
        let result = await running.wait()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed, 1 failed, 1 skipped"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "Recorded 1 request from \(target): 1 route added to Fixtures/server.yml, 1 fixture file written."
            ),
            "\(result.stdout)"
        )
        let written = try Data(contentsOf: fixtures.appendingPathComponent("restaurants.json"))
        #expect(
            written == (try Data(contentsOf: CLI.repositoryRoot.appendingPathComponent("Fixtures/restaurants.json")))
        )
        #expect(try await CLI.run(["check"], directory: project).status == 0)
    }

    /// `--record` with 50+ distinct requests the app sends in its scenarios: every one is recorded, and the
    /// recording, served, answers the same requests with the upstream's statuses, types and bytes.
    @Test func aRecordingRunOfManyRequestsPlaysBackByteForByte() async throws {
        let (upstream, target) = try await RecordCLITests.start(["serve"], in: try CLI.project([:]))
        defer { upstream.process.interrupt() }
        var paths = (1...40).map { "/restaurants/\($0)" } + (1...10).map { "/restaurants/\($0)/reviews" }
        paths += ["/restaurants", "/articles/technology/12"]
        let steps = paths.map { "      - get objects: { path: \($0) }" }
        let scenarios = stride(from: 0, to: steps.count, by: 13).map { start in
            "  - scenario: Part \(start / 13 + 1)\n    steps:\n"
                + steps[start..<min(start + 13, steps.count)].joined(separator: "\n")
                + "\n      - wait for requests"
        }
        let project = try CLI.project([
            "Scenarios/many.yml": "scenarios:\n" + scenarios.joined(separator: "\n") + "\n",
            "scenario-run.yml": "unmatched requests: fail\n",
        ])
        let fixtures = project.appendingPathComponent("Fixtures")
        try FileManager.default.removeItem(at: fixtures)
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)

        let recorded = try await CLI.run(["--ci", "--record", target], directory: project)
        #expect(recorded.stdout.contains("Recorded \(paths.count) requests from \(target)"), "\(recorded.stdout)")
        #expect(try await CLI.run(["check"], directory: project).status == 0)

        let (player, playback) = try await RecordCLITests.start(["serve"], in: project)
        defer { player.process.interrupt() }
        let requests = paths.map { (HTTPMethod.get, $0, Data?.none) }
        let played = try await RecordCLITests.send(requests, to: playback)
        let real = try await RecordCLITests.send(requests, to: target)
        #expect(played.count == paths.count)
        for (index, path) in paths.enumerated() {
            #expect(played[index] == real[index], "\(path)")
        }
        let replayed = try await CLI.run(["--ci"], directory: project)
        #expect(!replayed.stdout.contains("Recording"), "\(replayed.stdout)")
        #expect(
            recorded.status == replayed.status,
            "the same outcomes, played back\n\(recorded.stdout)\n\(replayed.stdout)"
        )
    }
}
