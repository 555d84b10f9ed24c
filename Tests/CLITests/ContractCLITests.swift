import Foundation
import TestSupport
import Testing

/// `check` with an OpenAPI document, through the built binary: `--openapi` and `openapi:` in
/// `scenario-run.yml`, a drifted fixture failing with both locations, a document that cannot be read.
struct ContractCLITests {
    static let document = """
        openapi: 3.1.0
        info: { title: Reviews, version: "1" }
        paths:
          /reviews/{id}:
            get:
              responses:
                "200":
                  description: one
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, rating]
                        properties: { id: { type: integer }, rating: { type: integer } }

        """

    static func project(fixture: String, settings: String? = nil) throws -> URL {
        var files = [
            "openapi.yaml": document,
            "Fixtures/server.yml": "routes:\n  - { path: \"/reviews/:id\", method: GET, fixture: review.json }\n",
            "Fixtures/review.json": fixture,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ]
        if let settings { files["scenario-run.yml"] = settings }
        return try CLI.project(files)
    }

    @Test func checkWithADocumentTheRoutesAgreeWithSaysSo() async throws {
        let project = try Self.project(fixture: #"{"id": 1, "rating": 5}"#, settings: "openapi: openapi.yaml\n")
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "OK: 1 scenario in 1 file, 1 server routes. Every route agrees with openapi.yaml (1 operation).\n"
        )
    }

    @Test func aDriftedFixtureFailsCheckAtTheRouteAndInTheBody() async throws {
        let project = try Self.project(fixture: #"{"id": 1, "rating": "5"}"#)
        let result = try await CLI.run(["check", "--openapi", "openapi.yaml"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                Fixtures/server.yml:2:5: error: GET /reviews/:id → 200: Fixtures/review.json: $.rating: expected integer, found string "5" (openapi.yaml: GET /reviews/{id}, response 200)
                  - { path: "/reviews/:id", method: GET, fixture: review.json }
                    ^
                1 error; nothing was run.

                """,
            "\(result.stderr)"
        )
        // Without the document, the same project checks clean: the contract is opt-in.
        #expect(try await CLI.run(["check"], directory: project).status == 0)
    }

    @Test func aDocumentThatCannotBeReadIsALocatedError() async throws {
        let project = try Self.project(fixture: "{}", settings: "openapi: missing.yaml\n")
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("missing.yaml"), "\(result.stderr)")
    }
}
