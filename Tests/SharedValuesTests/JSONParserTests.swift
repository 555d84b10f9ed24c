import Foundation
import Testing

@testable import SharedValues

struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    @Test func parsesEveryKindOfValue() throws {
        #expect(
            try parse(#" {"a": [1, -2.5, 3e2, true, false, null, "x"], "b": {}} "#)
                == ["a": [1, -2.5, 300.0, true, false, nil, "x"], "b": [:]]
        )
        #expect(try parse("12345678901") == .int(12_345_678_901))
    }

    /// Members are collected, then made into the object at once: nested objects keep their own members, and
    /// a repeated key keeps its last value, as before.
    @Test func nestedObjectsKeepTheirOwnMembersAndARepeatedKeyItsLastValue() throws {
        #expect(
            try parse(#"{"a": {"a": 1, "b": {"a": 2}}, "b": 3, "a2": {}, "b": 4}"#)
                == ["a": ["a": 1, "b": ["a": 2]], "b": 4, "a2": [:]]
        )
        let wide = (0..<300).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        guard case .object(let members) = try parse("{\(wide)}") else {
            Issue.record("not an object")
            return
        }
        #expect(members.count == 300)
        #expect(members["k299"] == .int(299))
    }

    /// Objects and arrays inside one another share the parser's buffers of open members and elements: each
    /// keeps its own, in order, however they nest and whichever ends first (fails when a nested value's
    /// members or elements are taken as its parent's, or left behind for the next).
    @Test func valuesNestedEveryWayKeepTheirOwnMembersAndElements() throws {
        #expect(
            try parse(#"[{"a": [1, {"b": [2, 3], "c": {}}, []], "d": [[4], [5, [6]]]}, [], {"e": [{"f": 7}]}, 8]"#)
                == [
                    ["a": [1, ["b": [2, 3], "c": [:]], []], "d": [[4], [5, [6]]]],
                    [],
                    ["e": [["f": 7]]],
                    8,
                ]
        )
        #expect(try parse(#"{"x": [1, 2], "x": [3], "y": {"x": 1, "x": [4]}}"#) == ["x": [3], "y": ["x": [4]]])
        // A failure inside a nested value is reported where it is.
        #expect(throws: JSONParseError.self) { try parse(#"[{"a": [1, {"b": 2,}]}]"#) }
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try parse(#""caf\u00E9 ünï""#) == .string("café ünï"))
    }

    @Test func reportsWhatAndWhere() {
        #expect(throws: JSONParseError(message: "Expected ',' or '}' in an object", offset: 8)) {
            try parse(#"{"a": 1 "b": 2}"#)
        }
        #expect(throws: JSONParseError(message: "Unexpected text after the JSON value", offset: 4)) {
            try parse("[1] x")
        }
        #expect(throws: JSONParseError(message: "Unexpected character '<'", offset: 0)) {
            try parse("<html>Service unavailable.</html>")
        }
        #expect(throws: JSONParseError(message: "Unterminated string", offset: 4)) { try parse(#""abc"#) }
        #expect(throws: JSONParseError(message: "Unexpected end of JSON", offset: 0)) { try parse("") }
    }

    @Test func writesWhatItReads() throws {
        let value: JSONValue = ["z": [1, 2.5, "q\"uote\n"], "a": nil, "m": ["k": true]]
        let text = String(decoding: value.encoded(), as: UTF8.self)
        #expect(text == #"{"a":null,"m":{"k":true},"z":[1,2.5,"q\"uote\n"]}"#)
        #expect(try JSONValue(parsing: value.encoded()) == value)
    }

    @Test func writesEveryEscapeAndTheRunsBetweenThem() throws {
        func written(_ string: String) -> String { String(decoding: JSONValue.string(string).encoded(), as: UTF8.self) }
        #expect(written("") == #""""#)
        #expect(written("plain é 日本") == #""plain é 日本""#)
        #expect(written("\"") == #""\"""#)
        #expect(written(#"{"a": "b\c"}"#) == #""{\"a\": \"b\\c\"}""#)
        #expect(written("a\nb\rc\td\u{0}e\u{1F}f\u{7F}") == "\"a\\nb\\rc\\td\\u0000e\\u001ff\u{7F}\"")
        // Every byte below 0x20, between runs, reads back as written.
        let controls = String(decoding: (0..<0x20).flatMap { [UInt8($0), UInt8(ascii: "x")] }, as: UTF8.self)
        #expect(try JSONValue(parsing: JSONValue.string(controls).encoded()) == .string(controls))
    }

    @Test func htmlSafeTextEscapesWhatCouldEndAScriptBlock() throws {
        let value: JSONValue = ["a</script>": "<b>&amp;</b>\n\"q\""]
        let text = String(decoding: value.htmlSafeText(), as: UTF8.self)
        #expect(text == #"{"a\u003c/script\u003e":"\u003cb\u003e\u0026amp;\u003c/b\u003e\n\"q\""}"#)
        #expect(try JSONValue(parsing: Data(value.htmlSafeText())) == value)
        #expect(!String(decoding: value.encoded(), as: UTF8.self).contains("u003c"), "only when asked")
    }

    @Test func writesTimesToTheMicrosecondAndOtherNumbersAsSwiftDoes() throws {
        func written(_ double: Double) -> String { String(decoding: JSONValue.double(double).encoded(), as: UTF8.self) }
        for (double, text) in [
            (0.012, "0.012"), (0.000001, "0.000001"), (-12.0125, "-12.0125"), (3.5, "3.5"),
            (1_234.567891, "1234.567891"),
            (0.1 + 0.2, "0.30000000000000004"), (1e-7, "1e-07"), (2.5e300, "2.5e+300"), (7, "7"),
        ] {
            #expect(written(double) == text)
            #expect(try JSONValue(parsing: Data(text.utf8)) == .double(double) || double == 7)
        }
    }

    @Test func writesEveryIntegerAndNestedKeysInTheirOrder() throws {
        for int in [0, 7, -7, 10, -10, 1_000_000, Int.max, Int.min] {
            #expect(String(decoding: JSONValue.int(int).encoded(), as: UTF8.self) == String(int))
        }
        let nested: JSONValue = ["b": ["y": 1, "x": [["d": 2, "c": 3]]], "a": -40]
        #expect(String(decoding: nested.encoded(), as: UTF8.self) == #"{"a":-40,"b":{"x":[{"c":3,"d":2}],"y":1}}"#)
        // Unsorted: every member once, whatever the order.
        #expect(try JSONValue(parsing: nested.encoded(sortedKeys: false)) == nested)
    }
}
