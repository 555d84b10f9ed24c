import Contract
import Foundation
import SharedValues
import StubServer
import Testing

/// Requests held to the document: the operation, path/query/header parameters and the JSON body.
struct RequestContractTests {
    static let document = """
        openapi: 3.1.0
        info: { title: Reviews, version: "1" }
        paths:
          /restaurants/{id}/reviews:
            parameters:
              - { name: id, in: path, required: true, schema: { type: integer } }
            post:
              parameters:
                - { $ref: "#/components/parameters/Token" }
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [review]
                      properties:
                        review:
                          type: object
                          required: [title, rating]
                          properties: { title: { type: string }, rating: { type: integer, maximum: 5 } }
              responses:
                "201": { description: made }
          /restaurants:
            get:
              parameters:
                - { name: tags, in: query, schema: { type: array, items: { type: string, enum: [vegan, halal] } } }
                - { name: ids, in: query, explode: false, schema: { type: array, items: { type: integer } } }
                - { name: open, in: query, schema: { type: array, items: { type: boolean } } }
                - { name: page, in: query, schema: { type: integer } }
              responses:
                "200": { description: all }
        components:
          parameters:
            Token: { name: X-Token, in: header, required: true, schema: { type: string, minLength: 4 } }

        """

    func violations(_ entry: JournalEntry) throws -> [String] {
        let root = try RouteContractTests.project(["openapi.yaml": Self.document])
        defer { try? FileManager.default.removeItem(at: root) }
        let document = try APIDocument.load(path: "openapi.yaml", directory: root)
        return RequestContract.violations(of: entry, against: document)
    }

    static func post(_ path: String, headers: [HTTPHeader], body: String) -> JournalEntry {
        JournalEntry(method: "POST", path: path, headers: headers, body: Data(body.utf8))
    }

    static let json = HTTPHeader(name: "Content-Type", value: "application/json")
    static let token = HTTPHeader(name: "x-token", value: "abcd")
    static let against = " (openapi.yaml: POST /restaurants/{id}/reviews)"

    @Test func aRequestThatKeepsToTheDocumentHasNoProblem() throws {
        let entry = Self.post(
            "/restaurants/7/reviews",
            headers: [Self.json, Self.token],
            body: #"{"review": {"title": "Good", "rating": 5}}"#
        )
        #expect(try violations(entry) == [])
    }

    @Test func eachBrokenPartIsNamed() throws {
        let entry = Self.post(
            "/restaurants/seven/reviews",
            headers: [Self.json, HTTPHeader(name: "X-Token", value: "ab")],
            body: #"{"review": {"title": "Good", "rating": 6}}"#
        )
        #expect(
            try violations(entry) == [
                "POST /restaurants/seven/reviews: path parameter 'id': expected integer, found string \"seven\""
                    + Self.against,
                "POST /restaurants/seven/reviews: header 'X-Token': expected at least 4 characters, found 2"
                    + Self.against,
                "POST /restaurants/seven/reviews: body $.review.rating: expected at most 5, found 6" + Self.against,
            ]
        )
    }

    @Test func aMissingRequiredHeaderOrBodyIsNamed() throws {
        let entry = JournalEntry(method: "POST", path: "/restaurants/7/reviews")
        #expect(
            try violations(entry) == [
                "POST /restaurants/7/reviews: header 'X-Token' is required, and missing" + Self.against,
                "POST /restaurants/7/reviews: the request body is required, and missing" + Self.against,
            ]
        )
    }

    @Test func aBodyOfAnotherTypeIsNamed() throws {
        let entry = Self.post(
            "/restaurants/7/reviews",
            headers: [HTTPHeader(name: "Content-Type", value: "text/plain"), Self.token],
            body: "hello"
        )
        #expect(
            try violations(entry) == [
                "POST /restaurants/7/reviews: the body is text/plain, expected application/json" + Self.against
            ]
        )
    }

    @Test func aRequestNoOperationHasIsNamed() throws {
        #expect(
            try violations(JournalEntry(method: "DELETE", path: "/restaurants/7/reviews")) == [
                "DELETE /restaurants/7/reviews is no operation of openapi.yaml (it has POST at that path)."
            ]
        )
        #expect(
            try violations(JournalEntry(method: "GET", path: "/nowhere")) == [
                "GET /nowhere is no operation of openapi.yaml."
            ]
        )
    }

    /// The problems of `GET /restaurants?query`.
    func listing(_ query: String) throws -> [String] {
        try violations(JournalEntry(method: "GET", path: "/restaurants", query: query))
    }

    @Test func anArrayQueryParameterIsEveryValueOfARepeatedItem() throws {
        #expect(try listing("tags=vegan&tags=halal&open=true&open=false&page=2") == [])
        #expect(
            try listing("tags=vegan&tags=kosher&open=true&open=maybe&page=two") == [
                #"GET /restaurants: query parameter 'tags[1]': expected one of "vegan", "halal", found string "kosher""#
                    + " (openapi.yaml: GET /restaurants)",
                #"GET /restaurants: query parameter 'open[1]': expected boolean, found string "maybe""#
                    + " (openapi.yaml: GET /restaurants)",
                #"GET /restaurants: query parameter 'page': expected integer, found string "two""#
                    + " (openapi.yaml: GET /restaurants)",
            ]
        )
    }

    @Test func anArrayQueryParameterWithoutExplodeIsOneValueSplitAtCommas() throws {
        #expect(try listing("ids=1,2,3") == [])
        #expect(
            try listing("ids=1,two") == [
                #"GET /restaurants: query parameter 'ids[1]': expected integer, found string "two""#
                    + " (openapi.yaml: GET /restaurants)"
            ]
        )
    }
}
