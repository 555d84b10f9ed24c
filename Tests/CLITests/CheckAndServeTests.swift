import Foundation
import ObjectManager
import TestSupport
import Testing

struct CheckAndServeTests {
    @Test func checkValidatesEverythingAndRunsNothing() throws {
        let result = try CLI.run(["check"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("OK: "))
        #expect(result.stdout.contains("scenarios in 6 files"))
    }

    @Test func checkReportsABadServerFileAndBadScenarioFilesTogether() throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps:\n      - cache response: { path: /x, fixture: missing.json }\n"
        ])
        let server = project.appendingPathComponent("Fixtures/server.yml")
        try "routes:\n  - { path: /x, stauts: 200 }\n".write(to: server, atomically: true, encoding: .utf8)
        let result = try CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Fixtures/server.yml:2:17: error: Unknown route key 'stauts'. Did you mean 'status'?"), "\(result.stderr)")
        #expect(result.stderr.contains("Scenarios/a.yml:4:46: error: Fixture 'missing.json' not found in 'Fixtures'."), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("2 errors; nothing was run.\n"))
    }

    @Test func serveAnswersOnThePrintedURLUntilInterrupted() async throws {
        let running = try CLI.Running(["serve"], directory: CLI.repositoryRoot, environment: [:])
        #expect(await eventually { running.stdout.contains("http://127.0.0.1:") })
        let line = try #require(running.stdout.split(separator: "\n").first { $0.contains("http://127.0.0.1:") })
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
        let url = try #require(URL(string: String(address) + "/restaurants"))
        let transport = AsyncHTTPTransport()
        let response = try await transport.send(HTTPRequest(method: .get, url: url))
        await transport.shutdown()
        #expect(response.status == 200)
        #expect(response.bodyText.contains("Chez Swift"))
        running.process.interrupt()
        let result = running.wait()
        #expect(result.status == 0)
        #expect(result.stdout.contains("Stopped; 1 requests served."))
    }
}
