import Contract
import Foundation
import SharedValues
import Testing

/// Every keyword the validator reads, on a value it allows and one it does not. The cases follow the
/// JSON Schema Test Suite's (draft 2020-12: type, properties, required, additionalProperties, items,
/// prefixItems, enum, const, minimum/maximum, exclusiveMinimum/Maximum, minLength/maxLength, pattern,
/// allOf/anyOf/oneOf/not, $ref, format) plus OpenAPI 3.0's `nullable`, boolean `exclusiveMinimum` and
/// `discriminator`.
struct SchemaValidatorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var schema: String
        var valid: String
        var invalid: String
        /// The one violation the invalid value gives.
        var violation: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "type",
            schema: #"{"type":"integer"}"#,
            valid: "5",
            invalid: #""5""#,
            violation: #"$: expected integer, found string "5""#
        ),
        Case(
            name: "integer as a whole double",
            schema: #"{"type":"integer"}"#,
            valid: "5.0",
            invalid: "5.5",
            violation: "$: expected integer, found number 5.5"
        ),
        Case(
            name: "type list",
            schema: #"{"type":["string","null"]}"#,
            valid: "null",
            invalid: "1",
            violation: "$: expected string or null, found integer 1"
        ),
        Case(
            name: "nullable (3.0)",
            schema: #"{"type":"string","nullable":true}"#,
            valid: "null",
            invalid: "true",
            violation: "$: expected string or null, found boolean true"
        ),
        Case(
            name: "properties",
            schema: #"{"properties":{"a":{"type":"string"}}}"#,
            valid: #"{"a":"x","b":1}"#,
            invalid: #"{"a":1}"#,
            violation: "$.a: expected string, found integer 1"
        ),
        Case(
            name: "required",
            schema: #"{"required":["id"]}"#,
            valid: #"{"id":1}"#,
            invalid: #"{"ID":1}"#,
            violation: "$.id: is required, and missing"
        ),
        Case(
            name: "additionalProperties false",
            schema: #"{"properties":{"title":{}},"additionalProperties":false}"#,
            valid: #"{"title":"x"}"#,
            invalid: #"{"titel":"x"}"#,
            violation: "$.titel: is not a property the schema allows (did you mean 'title'?)"
        ),
        Case(
            name: "additionalProperties schema",
            schema: #"{"additionalProperties":{"type":"integer"}}"#,
            valid: #"{"a":1}"#,
            invalid: #"{"a":"1"}"#,
            violation: #"$.a: expected integer, found string "1""#
        ),
        Case(
            name: "items",
            schema: #"{"items":{"type":"integer"}}"#,
            valid: "[1,2]",
            invalid: #"[1,"2"]"#,
            violation: #"$[1]: expected integer, found string "2""#
        ),
        Case(
            name: "prefixItems",
            schema: #"{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}"#,
            valid: #"["a",1]"#,
            invalid: "[1,1]",
            violation: "$[0]: expected string, found integer 1"
        ),
        Case(
            name: "minItems",
            schema: #"{"minItems":2}"#,
            valid: "[1,2]",
            invalid: "[1]",
            violation: "$: expected at least 2 items, found 1"
        ),
        Case(
            name: "maxItems",
            schema: #"{"maxItems":1}"#,
            valid: "[1]",
            invalid: "[1,2]",
            violation: "$: expected at most 1 items, found 2"
        ),
        Case(
            name: "uniqueItems",
            schema: #"{"uniqueItems":true}"#,
            valid: "[1,2]",
            invalid: "[1,1]",
            violation: "$: expected unique items, found a repeated one"
        ),
        Case(
            name: "enum",
            schema: #"{"enum":["open","closed"]}"#,
            valid: #""open""#,
            invalid: #""shut""#,
            violation: #"$: expected one of "open", "closed", found string "shut""#
        ),
        Case(
            name: "enum with 1 and 1.0",
            schema: #"{"enum":[1]}"#,
            valid: "1.0",
            invalid: "2",
            violation: "$: expected one of 1, found integer 2"
        ),
        Case(
            name: "const",
            schema: #"{"const":"v1"}"#,
            valid: #""v1""#,
            invalid: #""v2""#,
            violation: #"$: expected "v1", found string "v2""#
        ),
        Case(
            name: "minimum",
            schema: #"{"minimum":1}"#,
            valid: "1",
            invalid: "0",
            violation: "$: expected at least 1, found 0"
        ),
        Case(
            name: "maximum",
            schema: #"{"maximum":5}"#,
            valid: "5",
            invalid: "6",
            violation: "$: expected at most 5, found 6"
        ),
        Case(
            name: "exclusiveMinimum (3.1)",
            schema: #"{"exclusiveMinimum":0}"#,
            valid: "0.5",
            invalid: "0",
            violation: "$: expected more than 0, found 0"
        ),
        Case(
            name: "exclusiveMaximum (3.0)",
            schema: #"{"maximum":5,"exclusiveMaximum":true}"#,
            valid: "4",
            invalid: "5",
            violation: "$: expected less than 5, found 5"
        ),
        Case(
            name: "multipleOf",
            schema: #"{"multipleOf":0.5}"#,
            valid: "1.5",
            invalid: "1.2",
            violation: "$: expected a multiple of 0.5, found 1.2"
        ),
        Case(
            name: "minLength",
            schema: #"{"minLength":2}"#,
            valid: #""ab""#,
            invalid: #""é""#,
            violation: "$: expected at least 2 characters, found 1"
        ),
        Case(
            name: "maxLength",
            schema: #"{"maxLength":2}"#,
            valid: #""ab""#,
            invalid: #""abc""#,
            violation: "$: expected at most 2 characters, found 3"
        ),
        Case(
            name: "pattern",
            schema: #"{"pattern":"^[A-Z]{3}$"}"#,
            valid: #""EUR""#,
            invalid: #""eur""#,
            violation: #"$: string "eur" does not match the pattern ^[A-Z]{3}$"#
        ),
        Case(
            name: "format date-time",
            schema: #"{"format":"date-time"}"#,
            valid: #""2026-11-25T10:00:00Z""#,
            invalid: #""2026-11-25 10:00""#,
            violation: #"$: string "2026-11-25 10:00" is not a valid date-time"#
        ),
        Case(
            name: "format date",
            schema: #"{"format":"date"}"#,
            valid: #""2024-02-29""#,
            invalid: #""2023-02-29""#,
            violation: #"$: string "2023-02-29" is not a valid date"#
        ),
        Case(
            name: "format uuid",
            schema: #"{"format":"uuid"}"#,
            valid: #""123e4567-e89b-12d3-a456-426614174000""#,
            invalid: #""123e4567""#,
            violation: #"$: string "123e4567" is not a valid uuid"#
        ),
        Case(
            name: "format email",
            schema: #"{"format":"email"}"#,
            valid: #""a@b.org""#,
            invalid: #""a.b.org""#,
            violation: #"$: string "a.b.org" is not a valid email"#
        ),
        Case(
            name: "format uri",
            schema: #"{"format":"uri"}"#,
            valid: #""https://x.org/a""#,
            invalid: #""/a""#,
            violation: #"$: string "/a" is not a valid uri"#
        ),
        Case(
            name: "format int32",
            schema: #"{"type":"integer","format":"int32"}"#,
            valid: "2147483647",
            invalid: "2147483648",
            violation: "$: 2147483648 is not a valid int32"
        ),
        Case(
            name: "format int64",
            schema: #"{"type":"integer","format":"int64"}"#,
            valid: "9223372036854775807",
            invalid: "9223372036854775808",
            violation: "$: 9.223372036854776e+18 is not a valid int64"  // 2⁶³, read as a Double
        ),
        Case(
            name: "allOf",
            schema: #"{"allOf":[{"required":["a"]},{"required":["b"]}]}"#,
            valid: #"{"a":1,"b":2}"#,
            invalid: #"{"a":1}"#,
            violation: "$.b: is required, and missing"
        ),
        Case(
            name: "not",
            schema: #"{"not":{"type":"null"}}"#,
            valid: "1",
            invalid: "null",
            violation: "$: the value matches the schema under 'not'"
        ),
        Case(
            name: "oneOf matching two",
            schema: #"{"oneOf":[{"type":"integer"},{"minimum":0}]}"#,
            valid: "-1",
            invalid: "1",
            violation: "$: matches 2 of the schemas of oneOf, expected exactly one"
        ),
        Case(
            name: "boolean schema false",
            schema: #"{"properties":{"a":false}}"#,
            valid: "{}",
            invalid: #"{"a":1}"#,
            violation: "$.a: no value is allowed here"
        ),
        Case(
            name: "$ref",
            schema: ##"{"$ref":"#/components/schemas/Id"}"##,
            valid: "1",
            invalid: #""1""#,
            violation: #"$: expected integer, found string "1""#
        ),
        Case(
            name: "a name that is no identifier",
            schema: #"{"properties":{"a b":{"type":"string"}}}"#,
            valid: #"{"a b":"x"}"#,
            invalid: #"{"a b":1}"#,
            violation: "$['a b']: expected string, found integer 1"
        ),
    ]

    static func document() throws -> JSONValue {
        try JSONValue(
            parsing: Data(
                #"""
                {"components":{"schemas":{
                  "Id":{"type":"integer"},
                  "Pet":{"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],
                         "discriminator":{"propertyName":"kind","mapping":{"dog":"#/components/schemas/Dog"}}},
                  "Cat":{"type":"object","required":["kind","lives"],"properties":{"kind":{},"lives":{"type":"integer"}}},
                  "Dog":{"type":"object","required":["kind","bark"],"properties":{"kind":{},"bark":{"type":"boolean"}}},
                  "List":{"type":"array","items":{"$ref":"#/components/schemas/List"}}
                }}}
                """#.utf8
            )
        )
    }

    func violations(_ value: String, _ schema: String) throws -> [String] {
        let validator = SchemaValidator(document: try Self.document())
        return validator.violations(
            of: try JSONValue(parsing: Data(value.utf8)),
            against: try JSONValue(parsing: Data(schema.utf8))
        ).map(\.description)
    }

    @Test(arguments: cases)
    func aKeywordAllowsWhatItShouldAndNamesWhatItDoesNot(_ test: Case) throws {
        #expect(try violations(test.valid, test.schema) == [])
        #expect(try violations(test.invalid, test.schema) == [test.violation])
    }

    @Test func anyOfMatchingNoneSaysSoWithTheNearestOptionsReasons() throws {
        let found = try violations(
            #"{"a":"x"}"#,
            #"{"anyOf":[{"type":"string"},{"properties":{"a":{"type":"integer"}}}]}"#
        )
        #expect(found == ["$: matches none of the 2 schemas of anyOf", #"$.a: expected integer, found string "x""#])
    }

    @Test func anyOfAllowsAValueOneOrMoreOptionsMatch() throws {
        let schema = #"{"anyOf":[{"type":"string"},{"type":"integer"},{"minimum":0}]}"#
        #expect(try violations(#""x""#, schema) == [])
        #expect(try violations("1", schema) == [], "two options match")
    }

    @Test func oneOfMatchingNoneSaysSoWithTheNearestOptionsReasons() throws {
        let found = try violations(
            #"{"a":"x"}"#,
            #"{"oneOf":[{"type":"string"},{"properties":{"a":{"type":"integer"}}}]}"#
        )
        #expect(found == ["$: matches none of the 2 schemas of oneOf", #"$.a: expected integer, found string "x""#])
    }

    /// The OpenAPI specification's polymorphism example: each subtype names its base in `allOf`, and the
    /// base's discriminator names the subtype — by the schema's name, or by `mapping` (a name or a `$ref`).
    static let pets = #"""
        {"components":{"schemas":{
          "Pet":{"type":"object","required":["petType"],
                 "properties":{"name":{"type":"string"},"petType":{"type":"string"}},
                 "discriminator":{"propertyName":"petType",
                                  "mapping":{"dog":"Dog","hound":"#/components/schemas/Dog"}}},
          "Cat":{"allOf":[{"$ref":"#/components/schemas/Pet"},
                          {"type":"object","required":["lives"],"properties":{"lives":{"type":"integer"},
                           "friend":{"$ref":"#/components/schemas/Pet"}}}]},
          "Dog":{"allOf":[{"$ref":"#/components/schemas/Pet"},
                          {"type":"object","properties":{"packSize":{"type":"integer","minimum":0}}}]}
        }}}
        """#

    func pet(_ value: String, _ schema: String = "Pet") throws -> [String] {
        let validator = SchemaValidator(document: try JSONValue(parsing: Data(Self.pets.utf8)))
        return validator.violations(
            of: try JSONValue(parsing: Data(value.utf8)),
            against: .object(["$ref": .string("#/components/schemas/\(schema)")])
        ).map(\.description)
    }

    @Test func aDiscriminatorOnTheBaseOfAllOfSubtypesPicksTheSubtypeOnce() throws {
        #expect(try pet(#"{"petType":"Cat","lives":9}"#) == [])
        #expect(try pet(#"{"petType":"Cat","lives":9}"#, "Cat") == [])
        #expect(try pet(#"{"petType":"Cat","lives":"9"}"#) == [#"$.lives: expected integer, found string "9""#])
        #expect(try pet(#"{"petType":"Cat","lives":"9"}"#, "Cat") == [#"$.lives: expected integer, found string "9""#])
        #expect(
            try pet(#"{"petType":"Cat","name":1}"#) == [
                "$.name: expected string, found integer 1", "$.lives: is required, and missing",
            ]
        )
        #expect(
            try pet(#"{"petType":"Lizard"}"#) == ["$: the discriminator 'petType' is 'Lizard', which names no schema"]
        )
        // Explicit mapping, by name and by $ref.
        #expect(try pet(#"{"petType":"dog","packSize":2}"#) == [])
        #expect(try pet(#"{"petType":"hound","packSize":-1}"#) == ["$.packSize: expected at least 0, found -1"])
        // A Pet inside a Cat is picked afresh.
        #expect(
            try pet(#"{"petType":"Cat","lives":9,"friend":{"petType":"dog","packSize":-1}}"#) == [
                "$.friend.packSize: expected at least 0, found -1"
            ]
        )
    }

    @Test func aDiscriminatorPicksTheSchemaItNames() throws {
        let pet = ##"{"$ref":"#/components/schemas/Pet"}"##
        #expect(try violations(#"{"kind":"Cat","lives":9}"#, pet) == [])
        #expect(try violations(#"{"kind":"dog","bark":true}"#, pet) == [])
        #expect(try violations(#"{"kind":"dog","lives":9}"#, pet) == ["$.bark: is required, and missing"])
        #expect(
            try violations(#"{"kind":"Cow"}"#, pet) == ["$: the discriminator 'kind' is 'Cow', which names no schema"]
        )
        #expect(try violations(#"{"lives":9}"#, pet) == ["$: the discriminator property 'kind' is missing"])
    }

    @Test func aRefNamingNothingIsSaid() throws {
        #expect(
            try violations("1", ##"{"$ref":"#/components/schemas/Nope"}"##) == [
                "$: the schema's $ref '#/components/schemas/Nope' names nothing in the document"
            ]
        )
    }

    /// A recursive schema on a deep value stops at the depth limit with a violation: never a trap or a hang.
    @Test func aDeepValueAgainstARecursiveSchemaIsBounded() throws {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let found = try violations(deep, ##"{"$ref":"#/components/schemas/List"}"##)
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("the schema nests deeper than 64 levels") == true)
    }

    /// A pattern that backtracks catastrophically in ICU is read by the linear engine: a long value is
    /// judged, never a hang.
    @Test func aCatastrophicPatternOnALongValueIsJudged() throws {
        let value = "\"" + String(repeating: "a", count: 30_000) + "b\""
        #expect(try violations(value, #"{"pattern":"^(a+)+$"}"#).count == 1)
        #expect(
            try violations(#""x""#, #"{"pattern":"(?<=a)x"}"#) == [
                "$: the schema's pattern (?<=a)x is not a regular expression scenario-run reads"
            ]
        )
    }

    /// Many bad items give at most the limit of violations.
    @Test func violationsAreBounded() throws {
        let items = "[" + Array(repeating: #""x""#, count: 10_000).joined(separator: ",") + "]"
        #expect(try violations(items, #"{"items":{"type":"integer"}}"#).count == 50)
    }
}
