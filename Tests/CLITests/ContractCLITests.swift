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
            result.stdout == """
                OK: 1 scenario in 1 file, 1 server routes. Every route agrees with openapi.yaml (1 operation).
                Coverage of openapi.yaml: 1 operation, 1 stubbed by a route; no run recorded yet, so none exercised (run the scenarios, then check again). Every operation is stubbed.

                """
        )
    }

    @Test func aContractOffRouteIsNotHeldToTheDocument() async throws {
        let project = try CLI.project([
            "openapi.yaml": Self.document,
            "scenario-run.yml": "openapi: openapi.yaml\n",
            "Fixtures/server.yml": """
            routes:
              - { path: "/reviews/:id", method: GET, json: { id: 1, rating: 5 } }
              - { path: /slow, json: { rating: "not the API" }, delay: 0.1, contract: off }
              - { path: /drift, json: { rating: "held" } }

            """,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("Fixtures/server.yml:4:5: error: Any method /drift is no path of openapi.yaml.")
        )
        #expect(!result.stderr.contains("/slow"), "\(result.stderr)")
        #expect(result.stderr.contains("1 error; nothing was run."), "\(result.stderr)")
    }

    @Test func aContractValueOtherThanOnOrOffIsALocatedError() async throws {
        let project = try CLI.project([
            "Fixtures/server.yml": "routes:\n  - { path: /a, json: {}, contract: of }\n",
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("Fixtures/server.yml:2:37: error: Expected 'on' or 'off', found 'of'."),
            "\(result.stderr)"
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

/// A run holds every request the app sends to the document (`contract:`), in workers and in-process.
struct RequestContractCLITests {
    static let document = """
        openapi: 3.0.3
        info: { title: Items, version: "1" }
        paths:
          /items:
            get:
              parameters:
                - { name: page, in: query, required: true, schema: { type: integer, minimum: 1 } }
              responses:
                "200":
                  description: a page
                  content:
                    application/json:
                      schema: { type: array }

        """

    static func project(contract: String? = nil) throws -> URL {
        try CLI.project([
            "openapi.yaml": document,
            "scenario-run.yml": "openapi: openapi.yaml\n" + (contract.map { "contract: \($0)\n" } ?? ""),
            "Fixtures/server.yml": "routes:\n  - { path: /items, method: GET, json: [] }\n",
            "Scenarios/a.yml": """
            scenarios:
              - scenario: Keeps to the contract
                steps:
                  - get objects: { path: "/items?page=2" }
                  - expect response: { status: 200 }
              - scenario: Breaks the contract
                steps:
                  - get objects: { path: "/items?page=two" }
                  - expect response: { status: 200 }

            """,
        ])
    }

    @Test(arguments: [["--ci"], ["--ci", "--in-process"]])
    func aRequestThatBreaksTheDocumentFailsNamingTheStepThatSentIt(_ arguments: [String]) async throws {
        let result = try await CLI.run(arguments, directory: try Self.project())
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("✓ Keeps to the contract"))
        #expect(result.stdout.contains("✗ Breaks the contract"))
        #expect(
            result.stdout.contains(
                """
                    ✓ get objects /items?page=two
                    ✗ expect response status 200
                      1 request problem against openapi.yaml: GET /items: query parameter 'page': expected integer, found string "two" (openapi.yaml: GET /items); it was sent by the step 'get objects /items?page=two'
                      at Scenarios/a.yml:8
                """
            ),
            "\(result.stdout)"
        )
    }

    @Test func contractWarnNamesItInTheLogAndPasses() async throws {
        let result = try await CLI.run(["--ci", "--verbose"], directory: try Self.project(contract: "warn"))
        #expect(result.status == 0, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "log: warning: 1 request problem against openapi.yaml: GET /items: query parameter 'page': expected integer"
            ),
            "\(result.stdout)"
        )
    }

    /// A document with an operation the scenarios exercise, one a route stubs but none sends, and one
    /// neither stubs nor sends; a `contract: off` route the scenarios also use.
    static func coverageProject() throws -> URL {
        try CLI.project([
            "openapi.yaml": document + """
                  /items/{id}:
                    get:
                      responses: { "200": { description: one } }
                    delete:
                      responses: { "204": { description: gone } }

                """,
            "scenario-run.yml": "openapi: openapi.yaml\n",
            "Fixtures/server.yml": """
            routes:
              - { path: /items, method: GET, json: [] }
              - { path: "/items/:id", method: GET, json: {} }
              - { path: /slow, json: [], contract: off }

            """,
            "Scenarios/a.yml": """
            scenarios:
              - scenario: Pages
                steps:
                  - get objects: { path: "/items?page=2" }
                  - get objects: { path: "/items?page=3" }
                  - get objects: { path: /slow }
                  - expect response: { status: 200 }

            """,
        ])
    }

    @Test(arguments: [["--ci"], ["--ci", "--in-process"]])
    func checkSaysWhichOperationsNoRouteStubsAndTheLastRunDidNotExercise(_ arguments: [String]) async throws {
        let project = try Self.coverageProject()
        let run = try await CLI.run(arguments, directory: project)
        #expect(run.status == 0, "\(run.stdout)")
        let saved = try String(
            contentsOf: project.appendingPathComponent(".scenario-run/last-requests.json"),
            encoding: .utf8
        )
        #expect(saved.contains(#"{"method":"GET","path":"\/items"}"#), "\(saved)")
        #expect(saved.contains(#""scenarios":1"#), "\(saved)")

        let check = try await CLI.run(["check"], directory: project)
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(check.stdout)")
        #expect(
            lines[1].hasPrefix(
                "Coverage of openapi.yaml: 3 operations, 2 stubbed by a route, 1 exercised by the last run (1 scenario, 20"
            ),
            "\(check.stdout)"
        )
        #expect(
            Array(lines.dropFirst(2)) == [
                "  OPERATION            STUBBED BY              EXERCISED",
                "  GET /items/{id}      Fixtures/server.yml:3   no",
                "  DELETE /items/{id}   no route                no",
            ]
        )
    }

    @Test func aRunWhereNothingRanKeepsTheLastRunsRequests() async throws {
        let project = try Self.coverageProject()
        _ = try await CLI.run(["--ci"], directory: project)
        let file = project.appendingPathComponent(".scenario-run/last-requests.json")
        let first = try Data(contentsOf: file)
        let none = try await CLI.run(["--ci", "--filter", "no such scenario"], directory: project)
        #expect(none.status != 0 || none.stdout.contains("0 passed"), "\(none.stdout)")
        #expect(try Data(contentsOf: file) == first)
    }

    @Test func aDamagedRequestsFileIsAWarningAndCheckStillPasses() async throws {
        let project = try Self.coverageProject()
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent(".scenario-run"),
            withIntermediateDirectories: true
        )
        try Data("{not json".utf8).write(to: project.appendingPathComponent(".scenario-run/last-requests.json"))
        let check = try await CLI.run(["check"], directory: project)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stderr.contains("last-requests.json' (it is not the JSON scenario-run writes)"),
            "\(check.stderr)"
        )
        #expect(check.stdout.contains("no run recorded yet"), "\(check.stdout)")
    }

    @Test func contractOffChecksNoRequest() async throws {
        let result = try await CLI.run(["--ci"], directory: try Self.project(contract: "off"))
        #expect(result.status == 0, "\(result.stdout)")
    }
}
