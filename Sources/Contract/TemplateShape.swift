import Foundation
import SharedValues
import StubServer

/// What a template answer looks like, for `check`: its output for two made-up requests
/// (``TemplateValues/sample(_:placeholders:)``) that differ in everything a request decides. Where the two
/// outputs agree, the output is the same for every request and is held to the schema like a fixture's;
/// where they differ, the request decides the value, so only its JSON type is held to the schema, and only
/// when both outputs have the same one there (`"{{request.path.id}}"` is a string whatever the path says;
/// `"{{request.json.rating}}"` is whatever the app sent).
///
/// ```
/// id: "{{request.path.id}}"    →  $.id: expected integer, found string "1"
/// rating: "{{request.json.rating}}"  →  not checked: the app's body decides it
/// ```
struct TemplateShape {
    /// What the request decides at a place.
    enum Decided {
        /// Whether the place is there at all.
        case presence
        /// The value's JSON type.
        case type
        /// Only the value: its type is the same for every request.
        case value
    }

    /// The output for the first sample request, the one validated.
    let output: JSONValue
    /// The places (as a ``SchemaValidator/Violation`` names them) where the two outputs differ, and how.
    let decided: [String: Decided]

    /// The shape of two outputs of the same template; `second` nil when only the first is JSON, which leaves
    /// all of it to the request.
    init(_ first: JSONValue, _ second: JSONValue?) {
        output = first
        var decided: [String: Decided] = [:]
        if let second {
            Self.differences(first, second, at: "$", into: &decided)
        } else {
            decided["$"] = .presence
        }
        self.decided = decided
    }

    /// Whether `violation` holds for every request: it is not at or under a place the request decides; or,
    /// at one, it is a wrong JSON type where the request decides only the value, or a property not allowed
    /// (or missing) where the request does not decide whether it is there.
    func keeps(_ violation: SchemaValidator.Violation) -> Bool {
        for (place, decides) in decided {
            if violation.path == place {
                switch violation.kind {
                case .type: return decides == .value
                case .property: return decides != .presence
                case .value: return false
                }
            }
            if violation.path.hasPrefix(place),
                let next = violation.path.dropFirst(place.count).first, next == "." || next == "["
            {
                return false
            }
        }
        return true
    }

    /// The body of a template answer rendered for both sample requests, as JSON; nil when the answer is no
    /// JSON template. Throws the first output's parse error when it is not JSON.
    static func outputs(
        of answer: StubAnswer,
        placeholders: [String],
        fixtures: URL
    ) throws -> (JSONValue, JSONValue?)? {
        let samples = [0, 1].map { TemplateValues.sample($0, placeholders: placeholders) }
        switch answer.content {
        case .jsonTemplate(let template):
            return (template.render(samples[0]), template.render(samples[1]))
        case .bodyTemplate(let template) where (answer.contentType ?? "").contains("json"):
            return try parsed(samples.map { template.render($0) })
        case .fixture(let name) where answer.fixtureIsTemplate && (answer.contentType ?? "").contains("json"):
            guard let data = RouteContract.fixtureData(name, in: fixtures),
                let template = try? ResponseTemplate(
                    parsing: String(decoding: data, as: UTF8.self),
                    escaping: .init(contentType: answer.contentType)
                )
            else { return nil }  // missing, too large or not a template: `check` says so elsewhere
            return try parsed(samples.map { template.render($0) })
        default:
            return nil
        }
    }

    /// Why a template's output is not JSON: the parser's reason and the output's line, as rendered.
    struct NotJSON: Error, CustomStringConvertible {
        var description: String
    }

    private static func parsed(_ texts: [String]) throws -> (JSONValue, JSONValue?) {
        let bytes = Data(texts[0].utf8)
        let first: JSONValue
        do {
            first = try JSONValue(parsing: bytes)
        } catch {
            let offset = min(max(error.offset, 0), bytes.count)
            let before = bytes.prefix(offset)
            let number = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            let start = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.startIndex
            let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let line = String(decoding: bytes[start..<end].prefix(160), as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            throw NotJSON(description: "\(error.message) in line \(number) of the output: \(line)")
        }
        return (first, try? JSONValue(parsing: Data(texts[1].utf8)))
    }

    /// Records in `decided` every place where `first` and `second` differ, the deepest one.
    private static func differences(
        _ first: JSONValue,
        _ second: JSONValue,
        at path: String,
        into decided: inout [String: Decided]
    ) {
        guard decided.count < 10_000 else { return }
        switch (first, second) {
        case (.object(let one), .object(let other)):
            for key in Set(one.keys).union(other.keys) {
                let place = SchemaValidator.member(path, key)
                if let left = one[key], let right = other[key] {
                    differences(left, right, at: place, into: &decided)
                } else {
                    decided[place] = .presence
                }
            }
        case (.array(let one), .array(let other)):
            guard one.count == other.count else {
                decided[path] = .value  // how many items: an array either way
                return
            }
            for index in one.indices {
                differences(one[index], other[index], at: "\(path)[\(index)]", into: &decided)
            }
        default:
            if first != second { decided[path] = kind(of: first) == kind(of: second) ? .value : .type }
        }
    }

    /// A JSON type's name, numbers as one.
    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
