import Foundation
import ObjectManager
import Testing

struct ValueTests {
    @Test func parsingKeepsBoolsIntsAndDoublesApart() throws {
        let json = try JSONValue(
            parsing: Data(#"{"a": true, "b": 1, "c": 1.5, "d": null, "e": "x", "f": [1, "y"]}"#.utf8)
        )
        #expect(json == ["a": true, "b": 1, "c": 1.5, "d": nil, "e": "x", "f": [1, "y"]])
        #expect(try JSONValue(parsing: json.encoded()) == json)
        #expect(json.text == #"{"a":true,"b":1,"c":1.5,"d":null,"e":"x","f":[1,"y"]}"#)
    }

    @Test func keyPathsWalkObjectsAndCollectThroughArrays() {
        let json: JSONValue = ["errors": ["message": "Invalid."], "items": [["id": 1], ["id": 2], ["name": "x"]]]
        #expect(json[keyPath: "errors.message"] == "Invalid.")
        #expect(json[keyPath: "items.id"] == [1, 2])
        #expect(json[keyPath: "errors.code"] == nil)
        #expect(json[keyPath: "errors.message.deeper"] == nil)
        #expect(json[keyPath: ""] == json)
    }

    @Test func stringValuesAreReadyForInterpolation() {
        #expect(AttributeValue.integer(12345).stringValue == "12345")
        #expect(AttributeValue.double(3.0).stringValue == "3")
        #expect(AttributeValue.double(2.5).stringValue == "2.5")
        #expect(AttributeValue.boolean(true).stringValue == "true")
        #expect(AttributeValue.date(Date(timeIntervalSince1970: 0)).stringValue == "1970-01-01T00:00:00Z")
        #expect(AttributeValue.null.stringValue == nil)
        #expect(AttributeValue.date(Date(timeIntervalSince1970: 0)).jsonValue == "1970-01-01T00:00:00Z")
    }

    @Test func conversionsBetweenTypes() throws {
        #expect(try AttributeValue.string("42").converted(to: .integer) == .integer(42))
        #expect(try AttributeValue.string("4.0").converted(to: .integer) == .integer(4))
        #expect(try AttributeValue.integer(42).converted(to: .string) == .string("42"))
        #expect(try AttributeValue.integer(1).converted(to: .boolean) == .boolean(true))
        #expect(try AttributeValue.string("false").converted(to: .boolean) == .boolean(false))
        #expect(try AttributeValue.string("2.5").converted(to: .double) == .double(2.5))
        #expect(try JSONValue.array(["a"]).converted(to: .json) == .json(["a"]))
        #expect(try JSONValue.null.converted(to: .date) == .null)
        #expect(
            try AttributeValue.string("2012-03-01T00:00:00.500Z").converted(to: .date)
                == .date(Date(timeIntervalSince1970: 1_330_560_000.5))
        )
        #expect(
            try AttributeValue.string("2012-03-01").converted(to: .date)
                == .date(Date(timeIntervalSince1970: 1_330_560_000))
        )
        #expect(throws: ConversionError.cannotConvert(value: "'abc'", to: .integer)) {
            try AttributeValue.string("abc").converted(to: .integer)
        }
        #expect(throws: ConversionError.cannotConvert(value: "1.5", to: .integer)) {
            try AttributeValue.double(1.5).converted(to: .integer)
        }
    }
}
