import Foundation
import Testing

@testable import SharedValues

/// The hand-written JSON parser against Foundation's `JSONSerialization` on random and damaged documents
/// (a seeded generator, the same cases every run): both accept or both reject, and what both accept
/// they read to the same value. Deliberate differences are listed in ``expectedDifference(_:)``; nesting
/// past ``JSONParser/maxDepth`` is left out of the comparison (this parser stops there by design) and
/// tested on its own.
struct JSONParserFuzzTests {
    /// Edge cases written out, besides the generated ones.
    static let edgeCases: [[UInt8]] =
        [
            "0", "-0", "01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+", "1E5", "-1.5e-3", "1e400", "-1e400",
            "123456789012345678901234567890", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
            "-9223372036854775808", "18446744073709551615", "18446744073709551616", "-0.0", "0e0", "12E-1",
            "tru", "nul", "falsey", "[", "]", "{}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\"}", "{a:1}", "[1 2]",
            #""\x""#, #""\u12""#, #""\uD800""#, #""\uDC00""#, #""\uD800\u0041""#, #""\uD83D\uDE00""#, #""\'""#,
            "\"\u{01}\"", "\"a\tb\"", "\"\u{7F}\"", " \n\t\r[ ]\r\n", "[1]x", "\u{FEFF}[]", "[\"é\"]",
        ].map { Array($0.utf8) } + [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC3, 0xA9, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x5B, 0x00, 0x5D], [0x22, 0x00, 0x22],
        ]

    @Test func agreesWithJSONSerializationOnEdgeCases() {
        for bytes in Self.edgeCases { Self.compare(bytes) }
    }

    @Test func theDeliberateDifferencesAreRealOnes() throws {
        for text in ["[1,]", "{\"a\":1,}", "\u{FEFF}[]", "\u{0}0"] {
            let data = Data(text.utf8)
            #expect(Self.expectedDifference(Array(data)) != nil)
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: data) }
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
        }
    }

    @Test func agreesWithJSONSerializationOnRandomAndDamagedDocuments() {
        var random = SplitMix64(seed: 0x150_0D0C)
        let damage: [[UInt8]] =
            [
                "0", "1", "-", "+", ".", "e", "E", "\\", "\"", ",", ":", "[", "]", "{", "}", " ", "u", "D800", "\\u",
                "x",
            ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82], [0x00], [0x1F], [0x7F], [0xED, 0xB0, 0x80]]
        for _ in 0..<3000 {
            var bytes = Array(Self.document(&random, depth: 0).utf8)
            for _ in 0..<random.next(below: 3) where !bytes.isEmpty {
                let index = random.next(below: bytes.count)
                switch random.next(below: 3) {
                case 0: bytes.remove(at: index)
                case 1: bytes.insert(contentsOf: damage[random.next(below: damage.count)], at: index)
                default: bytes.replaceSubrange(index...index, with: damage[random.next(below: damage.count)])
                }
            }
            Self.compare(bytes)
        }
    }

    @Test func nestingDeeperThanTheLimitIsAnErrorNotACrash() throws {
        let ok = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(throws: Never.self) { try JSONValue(parsing: Data(ok.utf8)) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError(message: "JSON nested deeper than 256 levels", offset: 256)) {
            try JSONValue(parsing: Data(deep.utf8))
        }
        let objects = String(repeating: #"{"a":"#, count: 300)
        #expect(throws: JSONParseError(message: "JSON nested deeper than 256 levels", offset: 1280)) {
            try JSONValue(parsing: Data(objects.utf8))
        }
    }

    @Test func rejectsWhatJSONForbidsWithAMessage() {
        func error(_ bytes: [UInt8]) -> String? {
            do {
                _ = try JSONValue(parsing: Data(bytes))
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error(Array("01".utf8)) == "Leading zero in a number at byte 1.")
        #expect(error(Array("1e400".utf8)) == "Number '1e400' is too large at byte 0.")
        #expect(error([0x22, 0x61, 0xFF, 0x22]) == "Invalid UTF-8 in a string at byte 2.")
        #expect(error([0x22, 0x5C, 0x6E, 0xC3, 0x22]) == "Invalid UTF-8 in a string at byte 3.")
    }

    // MARK: Comparing

    /// Where this parser differs from `JSONSerialization` on purpose, or `nil` when they must agree.
    static func expectedDifference(_ bytes: [UInt8]) -> String? {
        // A byte-order mark: JSONSerialization skips it (RFC 8259 §8.1 lets a parser ignore it); response
        // bodies never start with one, and this parser sees no need to.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "a byte-order mark" }
        // A NUL in the first two bytes: JSONSerialization guesses UTF-16 or UTF-32 (RFC 4627 §3) and reads
        // `00 30` as "0"; RFC 8259 §8.1 requires UTF-8, which is all this parser reads.
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 { return "UTF-16 or UTF-32 by RFC 4627's guess" }
        // A trailing comma (`[1,]`, `{"a":1,}`): JSONSerialization accepts it, RFC 8259 does not, and
        // neither does this parser (a server answering that is broken, and a test should say so).
        var afterComma = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: ","): afterComma = true
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return "a trailing comma" }
            default: afterComma = false
            }
        }
        return nil
    }

    static func compare(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let data = Data(bytes)
        let ours = try? JSONValue(parsing: data)
        let theirs = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        let shown = String(decoding: bytes, as: UTF8.self).debugDescription + " \(bytes.prefix(40))"
        if expectedDifference(bytes) != nil { return }
        switch (ours, theirs) {
        case (nil, nil): break
        case (let ours?, let theirs?):
            #expect(
                agrees(ours, theirs),
                "read differently: \(shown): \(ours) vs \(theirs)",
                sourceLocation: sourceLocation
            )
        case (nil, _?): Issue.record("only JSONSerialization accepts \(shown)", sourceLocation: sourceLocation)
        case (_?, nil): Issue.record("only this parser accepts \(shown)", sourceLocation: sourceLocation)
        }
    }

    static func agrees(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let bool): return (theirs as? Bool) == bool
        case .int(let int):
            guard let number = theirs as? NSNumber else { return false }
            return number.int64Value == Int64(int) || number.doubleValue == Double(int)
        case .double(let double):
            guard let number = theirs as? NSNumber else { return false }
            let other = number.doubleValue
            return other == double || abs(other - double) <= abs(double) * 1e-12
        case .string(let string): return (theirs as? String) == string
        case .array(let elements):
            guard let others = theirs as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { agrees($0, $1) }
        case .object(let members):
            guard let others = theirs as? [String: Any], Set(others.keys) == Set(members.keys) else { return false }
            return members.allSatisfy { key, value in others[key].map { agrees(value, $0) } ?? false }
        }
    }

    // MARK: Generating

    /// A random JSON document with random spacing.
    static func document(_ random: inout SplitMix64, depth: Int) -> String {
        let space = [" ", "", "\n", "\t", "\r\n"][random.next(below: 5)]
        switch random.next(below: depth > 4 ? 6 : 8) {
        case 0: return "null"
        case 1: return random.next(below: 2) == 0 ? "true" : "false"
        case 2:
            let numbers = ["0", "-0", "7", "-12", "3.25", "-0.5e3", "1E-7", "9007199254740993", "2.5e+300", "42"]
            return numbers[random.next(below: numbers.count)]
        case 3, 4, 5:
            let strings = [
                #""""#, #""plain""#, #""é ünï 日本""#, #""tab\t nl\n \"q\" \\ \/""#, #""\u00e9\ud83d\ude00""#, #""😀""#,
            ]
            return strings[random.next(below: strings.count)]
        case 6:
            let count = random.next(below: 4)
            let items = (0..<count).map { _ in space + document(&random, depth: depth + 1) + space }
            return "[" + items.joined(separator: ",") + "]"
        default:
            let count = random.next(below: 4)
            let members = (0..<count).map { index in
                "\(space)\"k\(index)\"\(space):\(space)" + document(&random, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }
}
