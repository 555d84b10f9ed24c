import Contract
import Diagnostics
import Foundation
import StubServer
import Testing

/// An OpenAPI document read, and `server.yml`'s routes and fixtures held to it, from files on disk.
struct RouteContractTests {
    /// A scratch project with these files; removed by the caller.
    static func project(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    static let document30 = """
        openapi: 3.0.3
        info: { title: Reviews, version: "1" }
        paths:
          /reviews:
            get:
              responses:
                "200":
                  description: all
                  content:
                    application/json:
                      schema: { type: array, items: { $ref: "#/components/schemas/Review" } }
            post:
              responses:
                "201": { $ref: "#/components/responses/Made" }
                4XX: { description: refused }
          /reviews/latest:
            get:
              responses:
                default: { description: anything }
          /reviews/{id}:
            get:
              responses:
                "200":
                  description: one
                  content:
                    application/json:
                      schema: { $ref: "common.yaml#/Review" }
        components:
          responses:
            Made:
              description: made
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Review" }
          schemas:
            Review:
              type: object
              required: [id, rating, title]
              additionalProperties: false
              properties:
                id: { type: integer, format: int64 }
                rating: { type: integer, minimum: 1, maximum: 5 }
                title: { type: string }
                createdAt: { type: string, format: date-time, nullable: true }

        """

    static let common = """
        Review:
          type: object
          required: [id, rating]
          properties:
            id: { type: integer }
            rating: { type: integer }

        """

    /// The problems `check` reports for `routes` (the lines of a `routes:` list) against the 3.0 document.
    func problems(_ routes: String, fixtures: [String: String] = [:]) throws -> [String] {
        var files = [
            "openapi.yaml": Self.document30, "common.yaml": Self.common, "Fixtures/server.yml": "routes:\n" + routes,
        ]
        for (name, text) in fixtures { files["Fixtures/" + name] = text }
        let root = try Self.project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let document = try APIDocument.load(path: "openapi.yaml", directory: root)
        let server = root.appendingPathComponent("Fixtures/server.yml")
        let table = try ServerRouteTable.parse(
            yaml: try String(contentsOf: server, encoding: .utf8),
            file: "Fixtures/server.yml",
            fixtures: root.appendingPathComponent("Fixtures")
        )
        return RouteContract.problems(
            of: table.routes,
            against: document,
            fixtures: root.appendingPathComponent("Fixtures"),
            fixturesName: "Fixtures",
            source: try String(contentsOf: server, encoding: .utf8)
        ).map { "\($0.location): \($0.message)" }
    }

    @Test func routesThatAgreeWithTheDocumentPass() throws {
        #expect(
            try problems(
                """
                  - { path: /reviews, method: GET, json: [{ id: 1, rating: 5, title: Good, createdAt: null }] }
                  - { path: /reviews, method: POST, status: 201, json: { id: 2, rating: 4, title: Fine } }
                  - { path: /reviews, method: POST, status: 422, json: { error: no } }
                  - { path: /reviews/latest, method: GET, status: 500, body: "" }
                  - { path: "/reviews/:id", method: GET, fixture: review.json }
                  - { path: /reviews/7, method: GET, fixture: review.json }
                  - path: /reviews
                    method: POST
                    responses: [{ status: 201, json: { id: 3, rating: 1, title: A } }, { fault: connection reset }]
                  - { path: /reviews }

                """,
                fixtures: ["review.json": #"{"id": 7, "rating": 5}"#]
            ) == []
        )
    }

    /// A fixture drift — a renamed key, a wrong type, a missing required field — is located twice: at
    /// the route, and at the place in the body.
    @Test func aFixtureThatDriftedIsLocatedAtTheRouteAndInTheBody() throws {
        let found = try problems(
            """
              - { path: /reviews, method: POST, status: 201, fixture: made.json }

            """,
            fixtures: ["made.json": #"{"id": 1, "rating": "5", "titel": "Nice"}"#]
        )
        let against = " (openapi.yaml: POST /reviews, response 201)"
        #expect(
            found == [
                "Fixtures/server.yml:2:5: POST /reviews → 201: Fixtures/made.json: $.title: is required, and missing"
                    + against,
                #"Fixtures/server.yml:2:5: POST /reviews → 201: Fixtures/made.json: $.rating: expected integer, found string "5""#
                    + against,
                "Fixtures/server.yml:2:5: POST /reviews → 201: Fixtures/made.json: $.titel: is not a property the schema allows (did you mean 'title'?)"
                    + against,
            ]
        )
    }

    @Test func aSchemaInAnotherFileIsFollowed() throws {
        let found = try problems(
            "  - { path: \"/reviews/:id\", method: GET, json: { id: one, rating: 5 } }\n"
        )
        #expect(
            found == [
                #"Fixtures/server.yml:2:5: GET /reviews/:id → 200: json: $.id: expected integer, found string "one" (openapi.yaml: GET /reviews/{id}, response 200)"#
            ]
        )
    }

    @Test func eachAnswerOfASequenceIsChecked() throws {
        let found = try problems(
            """
              - path: /reviews
                method: POST
                responses: [{ status: 201, json: { id: 1, rating: 2, title: A } }, { status: 201, json: { id: 1 } }]

            """
        )
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.hasPrefix("Fixtures/server.yml:2:5: POST /reviews → 201: json: $.") })
    }

    /// A template answer is held to the schema where its output is the same for every request; where the
    /// request decides it, only for a JSON type that does not depend on the request.
    @Test func aTemplateAnswerIsCheckedByTheShapeOfItsOutput() throws {
        let against = " (openapi.yaml: POST /reviews, response 201)"
        let route = "  - { path: /reviews, method: POST, status: 201, "
        // Agreeing: a sequence is an integer; the rating is whatever the app sent; a string with a template in it
        // is a string.
        #expect(
            try problems(
                route
                    + #"json: { id: "{{sequence}}", rating: "{{request.json.rating}}", title: "Re: {{request.json.title}}" } }"#
                    + "\n"
            ) == []
        )
        // A path placeholder is a string whatever the path; a fixed value drifts as in a fixture; a key the schema
        // does not allow is reported even when its value comes from the request.
        let drifted = try problems(
            route
                + #"json: { id: "{{request.headers.X-Id}}", rating: 9, title: "{{request.json.title}}", extra: "{{now}}" } }"#
                + "\n"
        )
        #expect(
            drifted == [
                "Fixtures/server.yml:2:5: POST /reviews → 201: json (template): $.extra: is not a property the schema allows"
                    + against,
                #"Fixtures/server.yml:2:5: POST /reviews → 201: json (template): $.id: expected integer, found string "1""#
                    + against,
                "Fixtures/server.yml:2:5: POST /reviews → 201: json (template): $.rating: expected at most 5, found 9"
                    + against,
            ],
            "\(drifted)"
        )
        // A value the request decides is not held to the schema's values: a date-time format, a maximum.
        #expect(
            try problems(
                route
                    + #"json: { id: "{{sequence}}", rating: "{{request.json.stars}}", title: T, createdAt: "{{request.query.at}}" } }"#
                    + "\n"
            ) == []
        )
    }

    /// A fixture with `template: true` and a `body:` template are rendered as text for the sample requests;
    /// output that is not JSON is said, with the line of the output.
    @Test func aTextTemplateIsRenderedAndParsed() throws {
        let route = "  - { path: \"/reviews/:id\", method: GET, fixture: one.json, template: true }\n"
        #expect(
            try problems(route, fixtures: ["one.json": #"{"id": {{request.path.id}}, "rating": {{request.json.r}}}"#])
                == []
        )
        #expect(
            try problems(route, fixtures: ["one.json": #"{"id": "{{request.path.id}}", "rating": 5}"#]) == [
                #"Fixtures/server.yml:2:5: GET /reviews/:id → 200: Fixtures/one.json (template): $.id: expected integer, found string "1" (openapi.yaml: GET /reviews/{id}, response 200)"#
            ]
        )
        let broken = try problems(route, fixtures: ["one.json": "{\n  \"id\": 1,\n  \"rating\": {{now}}\n}"])
        #expect(broken.count == 1)
        #expect(
            broken.first?.hasPrefix(
                "Fixtures/server.yml:2:5: GET /reviews/:id → 200: Fixtures/one.json (template) renders no JSON for a sample request: "
            ) == true,
            "\(broken)"
        )
        #expect(
            broken.first?.hasSuffix(#"in line 3 of the output: "rating": 2026-01-01T00:00:00Z"#) == true,
            "\(broken)"
        )
        let body =
            #"  - { path: "/reviews/:id", method: GET, headers: { Content-Type: application/json }, body: "{\"id\": \"{{request.path.id}}\", \"rating\": 1}" }"#
        #expect(try problems(body + "\n").first?.contains("body (template): $.id: expected integer") == true)
    }

    @Test func aStatusTheOperationDoesNotDeclareIsAnError() throws {
        #expect(
            try problems("  - { path: /reviews, method: GET, status: 418, json: [] }\n") == [
                "Fixtures/server.yml:2:5: GET /reviews answers 418, which GET /reviews does not declare (it declares 200)."
            ]
        )
    }

    @Test func aRouteThatIsNoOperationIsAnErrorWithTheNearestPath() throws {
        #expect(
            try problems(
                """
                  - { path: /reveiws, method: GET, json: [] }
                  - { path: "/reviews/:id", method: DELETE, status: 204 }
                  - { path: /nowhere }

                """
            ) == [
                "Fixtures/server.yml:2:5: GET /reveiws is not an operation of openapi.yaml. Did you mean '/reviews'?",
                "Fixtures/server.yml:3:5: DELETE /reviews/:id is not an operation of openapi.yaml. The document has GET at that path.",
                "Fixtures/server.yml:4:5: Any method /nowhere is no path of openapi.yaml.",
            ]
        )
    }

    @Test func aBodyOfAnotherContentTypeIsSaid() throws {
        let found = try problems(
            "  - { path: /reviews, method: GET, body: \"<p/>\", headers: { Content-Type: text/html } }\n"
        )
        #expect(
            found == [
                "Fixtures/server.yml:2:5: GET /reviews answers 200 as text/html, but GET /reviews's 200 response is application/json."
            ]
        )
    }

    // MARK: The document

    @Test func aDocumentItCannotReadIsALocatedError() throws {
        let root = try Self.project([
            "bad.yaml":
                "openapi: 3.1.0\ninfo: { title: X, version: \"1\" }\npaths:\n  /a:\n    get:\n      responses:\n        \"abc\": { description: x }\n"
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect {
            try APIDocument.load(path: "bad.yaml", directory: root)
        } throws: { error in
            let text = (error as? DiagnosticList)?.description ?? ""
            return text.hasPrefix("bad.yaml:7:9: error: The OpenAPI document cannot be read: Expected `abc` value")
                && text.contains("\n        \"abc\": { description: x }\n        ^")
        }
    }

    @Test(arguments: [
        (
            "swagger: \"2.0\"\n",
            "bad.yaml:1:1: error: This is not an OpenAPI document: it has no 'openapi: 3.x' version at its top. Swagger 2.0 documents are not read; convert it to OpenAPI 3."
        ),
        (
            "openapi: 2.5.0\ninfo: {}\n",
            "bad.yaml:1:10: error: OpenAPI 2.5.0 is not read: the document must be OpenAPI 3.0 or 3.1."
        ),
        ("- a list\n", "bad.yaml:1:1: error: An OpenAPI document is a mapping, starting with 'openapi: 3.1.0'."),
        ("openapi: 3.1.0\ninfo: [\n", "bad.yaml:3:1: error: "),
    ])
    func whatIsNoOpenAPIDocumentIsSaid(_ text: String, _ expected: String) throws {
        let root = try Self.project(["bad.yaml": text])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect {
            try APIDocument.load(path: "bad.yaml", directory: root)
        } throws: { error in
            (error as? DiagnosticList)?.description.hasPrefix(expected) == true
        }
    }

    @Test func aThreeOneDocumentIsReadAsIs() throws {
        let root = try Self.project([
            "api.json":
                #"{"openapi":"3.1.0","info":{"title":"X","version":"1"},"paths":{"/a/{id}":{"get":{"responses":{"200":{"description":"x"}}},"put":{"responses":{"2XX":{"description":"x"}}}}}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let document = try APIDocument.load(path: "api.json", directory: root)
        #expect(document.version == "3.1.0")
        #expect(document.operations.map(\.description) == ["GET /a/{id}", "PUT /a/{id}"])
        let put = try #require(document.operation(method: "put", path: "/a/:id"))
        #expect(document.declaredStatus(204, of: put) == "2XX")
        #expect(document.declaredStatus(404, of: put) == nil)
    }
}
