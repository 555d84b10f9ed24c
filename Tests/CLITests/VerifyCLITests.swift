import Foundation
import TestSupport
import Testing

/// `verify` against a real provider on loopback: a second project's `scenario-run serve`, answering as
/// the real API does — with one endpoint drifted from the consumer's fixture.
struct VerifyCLITests {
    /// The provider: the API as it really answers (`rating` became a string on one endpoint; the list needs
    /// a token).
    static let provider = """
        routes:
          - { path: /restaurants, method: GET, when: { headers: { X-Token: secret } }, json: [{ id: 1, name: Zola, rating: 4, open: true }] }
          - { path: /restaurants, method: GET, status: 401, json: { error: token } }
          - { path: "/restaurants/:id", method: GET, json: { id: 1, name: Zola, rating: "4" } }
          - { path: "/restaurants/:id/reviews", method: POST, status: 201, json: { id: 9 } }

        """

    /// The consumer's stubs and fixtures.
    static let consumer = """
        routes:
          - { path: /restaurants, method: GET, fixture: restaurants.json }
          - { path: "/restaurants/:restaurantID", method: GET, json: { id: 1, name: Zola, rating: 4 } }
          - { path: "/restaurants/:restaurantID/reviews", method: POST, status: 201, json: { id: 1 } }
          - { path: /dropped, fault: connection reset }

        """

    func serveProvider() async throws -> (CLI.Running, String) {
        let project = try CLI.project([
            "Fixtures/server.yml": Self.provider,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        let running = try CLI.Running(["serve"], directory: project, environment: [:])
        #expect(await eventually(timeout: .seconds(60)) { StubServerCLITests.servingURL(running.stdout) != nil })
        return (running, try #require(StubServerCLITests.servingURL(running.stdout), "\(running.stderr)"))
    }

    func consumerProject() throws -> URL {
        try CLI.project([
            "Fixtures/server.yml": Self.consumer,
            "Fixtures/restaurants.json": #"[{"id": 2, "name": "Alma", "rating": 5}]"#,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
    }

    @Test func theDriftedEndpointIsTheOneReported() async throws {
        let (provider, url) = try await serveProvider()
        let project = try consumerProject()
        let result = try await CLI.run(
            ["verify", "--target", url, "--header", "X-Token: $PROVIDER_TOKEN", "--junit", "verify.xml"],
            directory: project,
            environment: ["PROVIDER_TOKEN": "secret"]
        )
        provider.process.interrupt()
        _ = await provider.wait()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✓ GET /restaurants (line 2)"), "\(result.stdout)")
        #expect(result.stdout.contains("✗ GET /restaurants/:restaurantID (line 3)"), "\(result.stdout)")
        #expect(
            result.stdout.contains(#"json $.rating: expected number, found string "4""#),
            "\(result.stdout)"
        )
        // A write is not sent without --allow-writes; a fault is not a provider's answer.
        #expect(result.stdout.contains("POST /restaurants/:restaurantID/reviews (line 4)"))
        #expect(result.stdout.hasSuffix("1 passed, 1 failed, 2 skipped\n"), "\(result.stdout)")
        // The header's value came from the environment and is printed nowhere.
        #expect(!result.stdout.contains("secret") && !result.stderr.contains("secret"))
        let junit = try String(contentsOf: project.appendingPathComponent("verify.xml"), encoding: .utf8)
        #expect(junit.contains(#"tests="4""#) && junit.contains(#"failures="1""#), "\(junit)")
    }

    @Test func writesAreSentWithAllowWrites() async throws {
        let (provider, url) = try await serveProvider()
        let result = try await CLI.run(
            ["verify", "--target", url, "--allow-writes"],
            directory: try consumerProject()
        )
        provider.process.interrupt()
        _ = await provider.wait()
        // Without the token the list is 401; the write is sent and agrees (its shape: an id).
        #expect(result.stdout.contains("✗ GET /restaurants (line 2)"), "\(result.stdout)")
        #expect(result.stdout.contains("the provider answered 401, the route 200"), "\(result.stdout)")
        #expect(result.stdout.contains("✓ POST /restaurants/:restaurantID/reviews (line 4)"), "\(result.stdout)")
    }

    /// Ctrl-C while a slow provider answers: the request is abandoned, the rest reported skipped, the
    /// summary and JUnit report written, exit 1 — at once, not after the provider's delay.
    @Test func ctrlCEndsItWithACompleteReport() async throws {
        let project = try CLI.project([
            "Fixtures/server.yml": """
            routes:
              - { path: /fast, json: { ok: true } }
              - { path: /slow, json: { ok: true }, delay: 60 }
              - { path: /after, json: { ok: true } }

            """,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        // The project is its own provider: `serve` answers /slow a minute late.
        let provider = try CLI.Running(["serve"], directory: project, environment: [:])
        #expect(await eventually(timeout: .seconds(60)) { StubServerCLITests.servingURL(provider.stdout) != nil })
        let url = try #require(StubServerCLITests.servingURL(provider.stdout))
        let verify = try CLI.Running(
            ["verify", "--target", url, "--junit", "verify.xml"],
            directory: project,
            environment: [:]
        )
        #expect(await eventually(timeout: .seconds(60)) { verify.stdout.contains("✓ GET /fast (line 2)") })
        verify.process.interrupt()
        let result = await verify.wait()
        provider.process.interrupt()
        _ = await provider.wait()
        #expect(result.status == 1)
        #expect(result.stdout.contains("Run cancelled."), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 0 failed, 2 skipped\n"), "\(result.stdout)")
        let junit = try String(contentsOf: project.appendingPathComponent("verify.xml"), encoding: .utf8)
        #expect(junit.contains(#"tests="3""#) && junit.contains(#"skipped="2""#), "\(junit)")
    }

    /// Routes marked `contract: off` are the tests' own (a slow answer, a forced 422): not the API's, so
    /// not sent, and the output says how many.
    @Test func contractOffRoutesAreSkippedAndCounted() async throws {
        let project = try CLI.project([
            "Fixtures/server.yml": """
            routes:
              - { path: /items, json: { ok: true } }
              - { path: /slow, contract: off, json: { ok: true } }
              - { path: /422, contract: off, status: 422, json: { error: refused } }

            """,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        // The project is its own provider.
        let provider = try CLI.Running(["serve"], directory: project, environment: [:])
        #expect(await eventually(timeout: .seconds(60)) { StubServerCLITests.servingURL(provider.stdout) != nil })
        let url = try #require(StubServerCLITests.servingURL(provider.stdout))
        let result = try await CLI.run(["verify", "--target", url], directory: project)
        provider.process.interrupt()
        _ = await provider.wait()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("- GET /slow (line 3) (skipped: it is marked contract: off, a route of the tests"),
            "\(result.stdout)"
        )
        #expect(result.stdout.contains("2 routes skipped: they are marked contract: off.\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 0 failed, 2 skipped\n"), "\(result.stdout)")
    }

    /// An unset variable would send an empty header, and the provider's 401 would read as drift.
    @Test func aHeaderNamingAnUnsetVariableIsAUsageError() async throws {
        let result = try await CLI.run(
            ["verify", "--target", "http://127.0.0.1:9", "--header", "Authorization: Bearer ${NO_SUCH_TOKEN_29}"],
            directory: try consumerProject(),
            environment: [:]
        )
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains(
                "--header 'Authorization': the environment variable 'NO_SUCH_TOKEN_29' is not set."
            ),
            "\(result.stderr)"
        )
    }

    /// A field HTTP/1.1 cannot carry is refused once, before anything is sent, saying why (it failed every
    /// request the check sent, each with the client's own words).
    @Test(arguments: [
        ("Résumé: secret-1", "--header 'Résumé': the header name \"Résumé\" is not an HTTP token."),
        ("X Token: secret-1", "--header 'X Token': the header name \"X Token\" is not an HTTP token."),
        (
            "X-Token: secret-1${LINE_29}b",
            "--header 'X-Token': the value of header X-Token has a line break or another control character."
        ),
    ])
    func aHeaderHTTPCannotCarryIsAUsageError(header: String, message: String) async throws {
        let result = try await CLI.run(
            ["verify", "--target", "http://127.0.0.1:9", "--header", header],
            directory: try consumerProject(),
            environment: ["LINE_29": "one\ntwo"]
        )
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stdout.contains("passed"), "nothing was checked: \(result.stdout)")
        #expect(!(result.stdout + result.stderr).contains("secret-1"), "a header's value is never printed")
    }

    @Test func aTargetThatIsNoURLIsAUsageError() async throws {
        let result = try await CLI.run(["verify", "--target", "staging"], directory: try consumerProject())
        #expect(result.status == 2)
        #expect(result.stderr.contains("--target takes an http or https URL"), "\(result.stderr)")
    }
}
