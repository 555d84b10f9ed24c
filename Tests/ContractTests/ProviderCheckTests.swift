import Contract
import Foundation
import SharedValues
import Testing

/// Pact's type matching of a provider's answer against a route's fixture.
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
}
