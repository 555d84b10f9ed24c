import Foundation
import SharedValues
import Testing

/// Where a JSON expectation first differs (SPEC §14): objects as subsets, arrays element by element or,
/// with `.includes`, in any order with extras allowed.
struct JSONMatchingTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: Data(text.utf8))
    }

    @Test func objectsMatchAsSubsetsAndNumbersByValue() throws {
        let actual = try json(#"{"id": 1, "name": "Ann", "score": 2.0, "tags": ["a"]}"#)
        #expect(actual.mismatch(against: try json(#"{"id": 1.0, "score": 2}"#)) == nil)
        #expect(actual.contains(try json(#"{"tags": ["a"]}"#)))
    }

    @Test(arguments: [
        (#"{"messages": [1, 2, 3]}"#, #"{"messages": [1, 2]}"#, "$.messages: 3 elements, expected 2"),
        (#"{"author": {"name": "Bob"}}"#, #"{"author": {"name": "Ann"}}"#, #"$.author.name: "Bob", expected "Ann""#),
        (#"{"author": {}}"#, #"{"author": {"name": "Ann"}}"#, #"$.author.name: missing, expected "Ann""#),
        (#"[{"id": 1}, {"id": 2}]"#, #"[{"id": 1}, {"id": 3}]"#, "$[1].id: 2, expected 3"),
        (#"{"id": "1"}"#, #"{"id": 1}"#, #"$.id: a string "1", expected a number 1"#),
        (#"{"first name": null}"#, #"{"first name": "Ann"}"#, #"$["first name"]: null, expected a string "Ann""#),
        (#"[1]"#, #"[]"#, "$: 1 element, expected 0"),
    ])
    func theFirstDifferenceIsNamedByPath(actual: String, expected: String, difference: String) throws {
        #expect(try json(actual).mismatch(against: try json(expected))?.description == difference)
    }

    @Test func keysAreWalkedInOrderSoTheAnswerIsStable() throws {
        let actual = try json(#"{"b": 1, "a": 1}"#)
        #expect(actual.mismatch(against: try json(#"{"b": 2, "a": 2}"#))?.path == "$.a")
    }

    @Test func includesMatchesInAnyOrderWithExtras() throws {
        let actual = try json(#"[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}, {"id": 3, "n": "c"}]"#)
        #expect(actual.mismatch(against: try json(#"[{"id": 3}, {"id": 1}]"#), arrays: .includes) == nil)
        #expect(
            actual.mismatch(against: try json(#"[{"id": 4}]"#), arrays: .includes)?.description
                == #"$: no element matches {"id":4} (3 elements)"#
        )
        // One actual element cannot match two expected ones.
        #expect(
            actual.mismatch(against: try json(#"[{"id": 1}, {"id": 1}]"#), arrays: .includes)?.description
                == #"$: no element matches {"id":1} (3 elements)"#
        )
    }

    @Test func includesFindsAMatchingWhereTakingTheFirstCandidateWouldMissIt() throws {
        // Greedy would give {"a":1} the first element and leave nothing for {"a":1,"b":2}.
        let actual = try json(#"[{"a": 1, "b": 2}, {"a": 1}]"#)
        #expect(actual.mismatch(against: try json(#"[{"a": 1}, {"a": 1, "b": 2}]"#), arrays: .includes) == nil)
    }

    @Test func includesAppliesToNestedArrays() throws {
        let actual = try json(#"{"rooms": [{"members": ["ann", "bob", "cy"]}]}"#)
        #expect(actual.contains(try json(#"{"rooms": [{"members": ["cy", "ann"]}]}"#), arrays: .includes))
        #expect(!actual.contains(try json(#"{"rooms": [{"members": ["cy", "ann"]}]}"#)))
    }

    @Test func longValuesAreShortenedInTheDifference() throws {
        let long = String(repeating: "x", count: 200)
        let detail = try json(#"{"a": "\#(long)"}"#).mismatch(against: try json(#"{"a": "y"}"#))?.detail ?? ""
        #expect(detail.count < 120)
        #expect(detail.hasSuffix(#"…, expected "y""#))
    }
}
