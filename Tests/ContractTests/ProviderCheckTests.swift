import Contract
import Foundation
import SharedValues
import StubServer
import Testing

/// The request `verify` sends for a route, and Pact's type matching of a provider's answer against the
/// route's fixture.
struct ProviderCheckTests {
    func differences(_ expected: String?, _ actual: String, status: Int = 200, expectedStatus: Int = 200) throws
        -> [String]
    {
        ProviderCheck.differences(
            expectedStatus: expectedStatus,
            expected: try expected.map { try JSONValue(parsing: Data($0.utf8)) },
            status: status,
            body: Data(actual.utf8)
        )
    }

    @Test func theSameShapeWithOtherValuesAndMoreKeysAgrees() throws {
        #expect(
            try differences(
                #"{"id": 1, "name": "Zola", "tags": ["a"], "open": true, "note": null}"#,
                #"{"id": 7, "name": "Alma", "tags": ["x", "y"], "open": false, "note": 3, "extra": {}}"#
            ) == []
        )
        #expect(try differences(#"{"price": 1}"#, #"{"price": 1.5}"#) == [], "integer and number are both numbers")
    }

    @Test func eachDifferenceIsNamedWithItsPlace() throws {
        #expect(
            try differences(
                #"{"id": 1, "name": "Zola", "items": [{"n": 1}]}"#,
                #"{"id": "1", "items": [{"n": 2}, {"n": "x"}]}"#
            ) == [
                #"$.id: expected number, found string "1""#,
                "$.items[1].n: expected number, found string \"x\"",
                "$.name: is missing from the provider's answer",
            ]
        )
        #expect(try differences("[{}]", "[]") == ["$: expected items like the fixture's, found none"])
    }

    @Test func theStatusComesFirst() throws {
        #expect(try differences("{}", "not json", status: 404) == ["the provider answered 404, the route 200"])
        #expect(try differences("{}", "not json") == ["the provider's body is not JSON; the route's is"])
        #expect(try differences(nil, "<html>") == [], "no JSON fixture: only the status is compared")
    }

    static let document = """
        openapi: 3.1.0
        info: { title: Reviews, version: "1" }
        paths:
          /restaurants/{id}/reviews/{reviewID}:
            get:
              parameters:
                - { name: id, in: path, required: true, example: 7, schema: { type: integer } }
                - { name: reviewID, in: path, required: true, schema: { type: string, enum: [latest, first] } }
              responses: { "200": { description: one } }

        """

    /// The plan for each route of `routes` (the lines of a `routes:` list), with the document above.
    func plans(_ routes: String, allowWrites: Bool = false, headers: [HTTPHeader] = []) throws
        -> [ProviderCheck.Plan]
    {
        let root = try RouteContractTests.project(["openapi.yaml": Self.document])
        defer { try? FileManager.default.removeItem(at: root) }
        let document = try APIDocument.load(path: "openapi.yaml", directory: root)
        let table = try ServerRouteTable.parse(yaml: "routes:\n" + routes, file: "Fixtures/server.yml")
        return table.routes.map {
            ProviderCheck.plan(for: $0, document: document, allowWrites: allowWrites, headers: headers)
        }
    }

    @Test func aPlaceholderTakesTheDocumentsExampleAtTheSamePlaceElseOne() throws {
        let found = try plans(
            """
              - { path: "/restaurants/:restaurant/reviews/:review", json: {} }
              - { path: "/kitchens/:id", method: HEAD, json: {} }

            """
        )
        #expect(
            found == [
                .send(method: "GET", target: "/restaurants/7/reviews/latest", headers: [], body: nil),
                .send(method: "HEAD", target: "/kitchens/1", headers: [], body: nil),
            ]
        )
    }

    @Test func whenQueryAndHeadersAreSentWithTheGivenHeaders() throws {
        let found = try plans(
            """
              - { path: /restaurants, when: { query: { sort: name, q: "a b" }, headers: { X-Token: secret } }, json: [] }
              - { path: /menus, when: { query: { day: { matches: "^mon" } }, headers: { Authorization: other } }, json: [] }

            """,
            headers: [HTTPHeader(name: "Authorization", value: "Bearer x")]
        )
        let authorization = HTTPHeader(name: "Authorization", value: "Bearer x")
        #expect(
            found == [
                .send(
                    method: "GET",
                    target: "/restaurants?sort=name&q=a%20b",
                    headers: [authorization, HTTPHeader(name: "X-Token", value: "secret")],
                    body: nil
                ),
                // A pattern gives no value to send; a header given on the command line is not replaced.
                .send(method: "GET", target: "/menus", headers: [authorization], body: nil),
            ]
        )
    }

    @Test func aWriteIsSentWithItsWhenJSONAsTheBodyOnlyWithAllowWrites() throws {
        let route = """
              - { path: /restaurants, method: POST, when: { json: { name: Zola, tags: [a] } }, status: 201, json: { id: 1 } }

            """
        #expect(
            try plans(route) == [.skip("a POST changes the provider's data: --allow-writes sends it")]
        )
        let found = try plans(route, allowWrites: true)
        guard case .send("POST", "/restaurants", let headers, let body?)? = found.first else {
            Issue.record("\(found)")
            return
        }
        #expect(headers == [HTTPHeader(name: "Content-Type", value: "application/json")])
        #expect(try JSONValue(parsing: body) == ["name": "Zola", "tags": ["a"]])
    }

    @Test func faultsAndContractOffRoutesAreNotSent() throws {
        #expect(
            try plans(
                """
                  - { path: /dropped, fault: connection reset }
                  - { path: /slow, contract: off, delay: 5, json: {} }

                """
            ) == [
                .skip("it answers with a fault, not an answer a provider gives"),
                .skip("it is marked contract: off, a route of the tests, not of the API"),
            ]
        )
    }
}
