import Diagnostics
import Foundation
package import SharedValues
import StubServer

/// Validates a JSON value against a JSON Schema as OpenAPI 3.0 and 3.1 documents write them: `type`
/// (a name or a list, and 3.0's `nullable`), `properties`, `required`, `additionalProperties`, `items`
/// and `prefixItems`, `minItems`/`maxItems`/`uniqueItems`, `enum`, `const`, `format` (date-time, date,
/// uuid, email, uri, int32, int64), `minimum`/`maximum` and both forms of their exclusive variants,
/// `minLength`/`maxLength`, `pattern`, `allOf`/`anyOf`/`oneOf`/`not`, `discriminator`, and `$ref` within
/// the document and into other files beside it.
///
/// No kept Swift library validates instances against a schema (OpenAPIKit models documents; it does
/// not validate values), so this is written over the document's own JSON (DECISIONS.md).
///
/// ```swift
/// let validator = SchemaValidator(document: document)
/// validator.violations(of: fixture, against: schema)
/// // [Violation(path: "$.review.rating", message: "expected integer, found string \"5\"")]
/// ```
package struct SchemaValidator: Sendable {
    /// One place where a value breaks its schema: a JSONPath-like location (`$.items[2].name`) and why.
    package struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// What is wrong at the place.
        package enum Kind: Sendable, Hashable {
            /// The value (its range, length, format, pattern, …).
            case value
            /// The value's JSON type.
            case type
            /// The property itself: one the schema does not allow, or a required one missing.
            case property
        }

        package var path: String
        package var message: String
        package var kind: Kind

        package init(path: String, message: String, kind: Kind = .value) {
            self.path = path
            self.message = message
            self.kind = kind
        }

        package var description: String { "\(path): \(message)" }
    }

    /// The document whose `#/…` references are resolved.
    package let document: JSONValue
    /// Other documents by the file name a `$ref` gives (`common.yaml#/Review`).
    package let others: [String: JSONValue]

    /// How deep references and nested schemas may go: a cycle of `$ref`s ends here, with a violation.
    static let depthLimit = 64
    /// How many violations one value reports at most.
    static let violationLimit = 50
    /// How many steps one `pattern` may take on one value.
    static let patternBudget = 4_000_000

    package init(document: JSONValue, others: [String: JSONValue] = [:]) {
        self.document = document
        self.others = others
    }

    /// Every way `value` breaks `schema` (at most ``violationLimit``), each once; empty when it is valid.
    package func violations(of value: JSONValue, against schema: JSONValue) -> [Violation] {
        var found: [Violation] = []
        check(value, schema, at: "$", in: nil, depth: 0, into: &found)
        // A discriminator's base is held twice: as itself, and from the subtype's allOf.
        var seen: Set<Violation> = []
        return Array(found.filter { seen.insert($0).inserted }.prefix(Self.violationLimit))
    }

    /// The schema a `$ref` names, and the file it is in (nil: this document).
    package func resolve(_ reference: String, in file: String?) -> (schema: JSONValue, file: String?)? {
        let (name, pointer) =
            reference.firstIndex(of: "#").map {
                (String(reference[..<$0]), String(reference[reference.index(after: $0)...]))
            } ?? (reference, "")
        let target = name.isEmpty ? file : name
        guard let root = target.map({ others[$0] }) ?? document else { return nil }
        var node = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let key =
                token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                .removingPercentEncoding ?? String(token)
            switch node {
            case .object(let members):
                guard let next = members[key] else { return nil }
                node = next
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                node = items[index]
            default: return nil
            }
        }
        return (node, target)
    }

    /// `entered`: the schemas (file and pointer) this same value is already being held to through a `$ref`
    /// or a discriminator; a discriminator that names one of them is not followed again (a subtype's
    /// `allOf` naming its base, as the OpenAPI specification's `Pet`/`Cat` example does).
    private func check(
        _ value: JSONValue,
        _ schema: JSONValue,
        at path: String,
        in file: String?,
        depth: Int,
        entered: Set<String> = [],
        into found: inout [Violation]
    ) {
        guard found.count < Self.violationLimit else { return }
        guard depth < Self.depthLimit else {
            found.append(Violation(path: path, message: "the schema nests deeper than \(Self.depthLimit) levels"))
            return
        }
        func fail(_ message: String) { found.append(Violation(path: path, message: message)) }
        switch schema {
        case .bool(true): return
        case .bool(false):
            fail("no value is allowed here")
            return
        case .object: break
        default: return  // not a schema: nothing to hold the value to
        }
        let next = depth + 1
        if case .string(let reference)? = schema["$ref"] {
            guard let (target, targetFile) = resolve(reference, in: file) else {
                fail("the schema's $ref '\(reference)' names nothing in the document")
                return
            }
            let key = Self.key(reference, in: targetFile)
            check(value, target, at: path, in: targetFile, depth: next, entered: entered.union([key]), into: &found)
        }
        if value == .null, schema["nullable"] == .bool(true) { return }
        // A discriminator picks the one schema of oneOf/anyOf that applies — unless the value is already
        // held to that schema (this is its base, reached from the subtype's allOf): then it has picked.
        if let picked = discriminated(value, schema, in: file) {
            switch picked {
            case .success(let (target, targetFile, key)) where !entered.contains(key):
                check(value, target, at: path, in: targetFile, depth: next, entered: entered.union([key]), into: &found)
            case .success: break
            case .failure(let problem): fail(problem.message)
            }
        } else {
            combinators(value, schema, at: path, in: file, depth: next, entered: entered, into: &found)
        }
        if case .array(let all)? = schema["allOf"] {
            for part in all { check(value, part, at: path, in: file, depth: next, entered: entered, into: &found) }
        }
        if let not = schema["not"] {
            var inner: [Violation] = []
            check(value, not, at: path, in: file, depth: next, into: &inner)
            if inner.isEmpty { fail("the value matches the schema under 'not'") }
        }
        if let types = Self.types(of: schema), !types.contains(where: { Self.value(value, is: $0) }) {
            let nullable = schema["nullable"] == .bool(true) ? " or null" : ""
            found.append(
                Violation(
                    path: path,
                    message: "expected \(types.joined(separator: " or "))\(nullable), found \(Self.describe(value))",
                    kind: .type
                )
            )
            return
        }
        if case .array(let options)? = schema["enum"], !options.contains(where: { Self.equal($0, value) }) {
            let listed = options.prefix(8).map(\.text).joined(separator: ", ")
            fail("expected one of \(listed)\(options.count > 8 ? ", …" : ""), found \(Self.describe(value))")
        }
        if let constant = schema["const"], !Self.equal(constant, value) {
            fail("expected \(constant.text), found \(Self.describe(value))")
        }
        switch value {
        case .string(let text): checkString(text, schema, fail: fail)
        case .int, .double: checkNumber(value, schema, fail: fail)
        case .array(let items): checkArray(items, schema, at: path, in: file, depth: next, into: &found)
        case .object(let members): checkObject(members, schema, at: path, in: file, depth: next, into: &found)
        default: break
        }
    }

    private func combinators(
        _ value: JSONValue,
        _ schema: JSONValue,
        at path: String,
        in file: String?,
        depth: Int,
        entered: Set<String>,
        into found: inout [Violation]
    ) {
        for keyword in ["anyOf", "oneOf"] {
            guard case .array(let options)? = schema[keyword], !options.isEmpty else { continue }
            var results: [[Violation]] = []
            for option in options {
                var inner: [Violation] = []
                check(value, option, at: path, in: file, depth: depth, entered: entered, into: &inner)
                results.append(inner)
            }
            let matching = results.filter(\.isEmpty).count
            if matching == 0 {
                // The nearest option's reasons say most about what is wrong: the fewest, and among those
                // one whose type fitted (its reasons are inside the value, not about the value itself).
                func distance(_ reasons: [Violation]) -> Double {
                    Double(reasons.count) + (reasons.contains { $0.path == path } ? 0.5 : 0)
                }
                let nearest = results.min { distance($0) < distance($1) } ?? []
                found.append(
                    Violation(path: path, message: "matches none of the \(options.count) schemas of \(keyword)")
                )
                found.append(contentsOf: nearest.prefix(3))
            } else if keyword == "oneOf", matching > 1 {
                found.append(
                    Violation(path: path, message: "matches \(matching) of the schemas of oneOf, expected exactly one")
                )
            }
        }
    }

    /// With a `discriminator`, the schema its property's value names: from its `mapping`, else the
    /// schema of that name under `#/components/schemas`. Nil when the schema has no discriminator.
    private func discriminated(_ value: JSONValue, _ schema: JSONValue, in file: String?)
        -> Result<(schema: JSONValue, file: String?, key: String), DiscriminatorProblem>?
    {
        guard case .string(let property)? = schema["discriminator"]?["propertyName"],
            case .object(let members) = value
        else { return nil }
        guard case .string(let name)? = members[property] else {
            return .failure(DiscriminatorProblem(message: "the discriminator property '\(property)' is missing"))
        }
        let reference: String
        if case .string(let mapped)? = schema["discriminator"]?["mapping"]?[name] {
            reference = mapped.contains("#") || mapped.contains("/") ? mapped : "#/components/schemas/\(mapped)"
        } else {
            reference = "#/components/schemas/\(name)"
        }
        guard let resolved = resolve(reference, in: file) else {
            return .failure(
                DiscriminatorProblem(message: "the discriminator '\(property)' is '\(name)', which names no schema")
            )
        }
        return .success((resolved.schema, resolved.file, Self.key(reference, in: resolved.file)))
    }

    /// A schema's place, the same however a `$ref` to it is written: `common.yaml#/Review`, `#/Pet`.
    private static func key(_ reference: String, in file: String?) -> String {
        let pointer = reference.firstIndex(of: "#").map { reference[$0...] } ?? "#"
        return (file ?? "") + pointer
    }

    private struct DiscriminatorProblem: Error {
        var message: String
    }

    private func checkString(_ text: String, _ schema: JSONValue, fail: (String) -> Void) {
        let length = text.unicodeScalars.count
        if let minimum = schema["minLength"]?.number, Double(length) < minimum {
            fail("expected at least \(Int(minimum)) characters, found \(length)")
        }
        if let maximum = schema["maxLength"]?.number, Double(length) > maximum {
            fail("expected at most \(Int(maximum)) characters, found \(length)")
        }
        if case .string(let pattern)? = schema["pattern"] {
            // The stub server's linear engine: a pattern from a document never backtracks on a long value.
            if let expression = try? LinearRegex(pattern) {
                var budget = Self.patternBudget
                switch expression.finds(in: text, budget: &budget) {
                case false?: fail("\(Self.describe(.string(text))) does not match the pattern \(pattern)")
                case nil: fail("the pattern \(pattern) took too long on this value to say whether it matches")
                case true?: break
                }
            } else {
                fail("the schema's pattern \(pattern) is not a regular expression scenario-run reads")
            }
        }
        if case .string(let format)? = schema["format"], let valid = Formats.check(format, text), !valid {
            fail("\(Self.describe(.string(text))) is not a valid \(format)")
        }
    }

    private func checkNumber(_ value: JSONValue, _ schema: JSONValue, fail: (String) -> Void) {
        guard let number = value.number else { return }
        let shown = value.text
        if let bound = schema["minimum"], let minimum = bound.number {
            let exclusive = schema["exclusiveMinimum"] == .bool(true)
            if exclusive ? number <= minimum : number < minimum {
                fail("expected \(exclusive ? "more than" : "at least") \(bound.text), found \(shown)")
            }
        }
        if let bound = schema["maximum"], let maximum = bound.number {
            let exclusive = schema["exclusiveMaximum"] == .bool(true)
            if exclusive ? number >= maximum : number > maximum {
                fail("expected \(exclusive ? "less than" : "at most") \(bound.text), found \(shown)")
            }
        }
        if let bound = schema["exclusiveMinimum"], let minimum = bound.number, number <= minimum {
            fail("expected more than \(bound.text), found \(shown)")
        }
        if let bound = schema["exclusiveMaximum"], let maximum = bound.number, number >= maximum {
            fail("expected less than \(bound.text), found \(shown)")
        }
        if let bound = schema["multipleOf"], let divisor = bound.number, divisor > 0 {
            let quotient = number / divisor
            if abs(quotient - quotient.rounded()) > 1e-9 {
                fail("expected a multiple of \(bound.text), found \(shown)")
            }
        }
        if case .string(let format)? = schema["format"] {
            let ranges: [String: ClosedRange<Double>] = [
                "int32": Double(Int32.min)...Double(Int32.max),
                // A JSON integer that fits Int is one; a larger one is read as a Double, and 2⁶³, the first
                // Double past Int64.max (which no Double holds), is not.
                "int64": -0x1p63...0x1.fffffffffffffp62,
            ]
            if case .int = value, format == "int64" { return }
            if let range = ranges[format], !range.contains(number) || number.rounded() != number {
                fail("\(shown) is not a valid \(format)")
            }
        }
    }

    private func checkArray(
        _ items: [JSONValue],
        _ schema: JSONValue,
        at path: String,
        in file: String?,
        depth: Int,
        into found: inout [Violation]
    ) {
        if let minimum = schema["minItems"]?.number, Double(items.count) < minimum {
            found.append(
                Violation(path: path, message: "expected at least \(Int(minimum)) items, found \(items.count)")
            )
        }
        if let maximum = schema["maxItems"]?.number, Double(items.count) > maximum {
            found.append(Violation(path: path, message: "expected at most \(Int(maximum)) items, found \(items.count)"))
        }
        if schema["uniqueItems"] == .bool(true), Set(items).count != items.count {
            found.append(Violation(path: path, message: "expected unique items, found a repeated one"))
        }
        var prefix = 0
        if case .array(let positional)? = schema["prefixItems"] {
            prefix = positional.count
            for (index, item) in zip(items.indices, positional) {
                check(items[index], item, at: "\(path)[\(index)]", in: file, depth: depth, into: &found)
            }
        }
        switch schema["items"] {
        case .array(let positional)?:  // draft 4's tuple form, as some 3.0 documents write it
            for (index, item) in zip(items.indices, positional) {
                check(items[index], item, at: "\(path)[\(index)]", in: file, depth: depth, into: &found)
            }
        case let itemSchema?:
            for index in items.indices.dropFirst(prefix) {
                check(items[index], itemSchema, at: "\(path)[\(index)]", in: file, depth: depth, into: &found)
                if found.count >= Self.violationLimit { return }
            }
        case nil: break
        }
    }

    private func checkObject(
        _ members: [String: JSONValue],
        _ schema: JSONValue,
        at path: String,
        in file: String?,
        depth: Int,
        into found: inout [Violation]
    ) {
        if case .array(let required)? = schema["required"] {
            for case .string(let name) in required where members[name] == nil {
                found.append(
                    Violation(path: Self.member(path, name), message: "is required, and missing", kind: .property)
                )
            }
        }
        let properties: [String: JSONValue]
        if case .object(let declared)? = schema["properties"] { properties = declared } else { properties = [:] }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            let place = Self.member(path, name)
            if let property = properties[name] {
                check(member, property, at: place, in: file, depth: depth, into: &found)
            } else if let additional = schema["additionalProperties"] {
                if additional == .bool(false) {
                    let known = properties.keys.sorted()
                    let near = Suggestions.nearest(to: name, in: known)
                    let hint = near.isEmpty ? "" : " (did you mean '\(near[0])'?)"
                    found.append(
                        Violation(path: place, message: "is not a property the schema allows\(hint)", kind: .property)
                    )
                } else {
                    check(member, additional, at: place, in: file, depth: depth, into: &found)
                }
            }
            if found.count >= Self.violationLimit { return }
        }
        if let minimum = schema["minProperties"]?.number, Double(members.count) < minimum {
            found.append(
                Violation(path: path, message: "expected at least \(Int(minimum)) properties, found \(members.count)")
            )
        }
        if let maximum = schema["maxProperties"]?.number, Double(members.count) > maximum {
            found.append(
                Violation(path: path, message: "expected at most \(Int(maximum)) properties, found \(members.count)")
            )
        }
    }

    /// `$.review` + `rating` → `$.review.rating`; a name that is not an identifier is quoted: `$['a b']`.
    static func member(_ path: String, _ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
        return plain ? "\(path).\(name)" : "\(path)['\(name.replacingOccurrences(of: "'", with: "\\'"))']"
    }

    /// The schema's `type` as a list of names; nil when it has none.
    static func types(of schema: JSONValue) -> [String]? {
        switch schema["type"] {
        case .string(let name)?: return [name]
        case .array(let names)?: return names.compactMap(\.stringValue)
        default: return nil
        }
    }

    static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array), ("string", .string),
            ("number", .int), ("number", .double), ("integer", .int):
            return true
        case ("integer", .double(let number)): return number.rounded() == number && number.isFinite
        default: return false
        }
    }

    /// JSON equality, with `1` and `1.0` equal.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        if let a = left.number, let b = right.number { return a == b }
        switch (left, right) {
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        default: return left == right
        }
    }

    /// `string "5"`, `integer 5`, `an object`: what was found, with a short value.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "boolean \(flag)"
        case .int(let number): return "integer \(number)"
        case .double(let number): return "number \(JSONValue.double(number).text)"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "string \(JSONValue.string(shown).text)"
        case .array(let items): return "an array of \(items.count)"
        case .object: return "an object"
        }
    }
}

extension JSONValue {
    /// A member of an object.
    subscript(member: String) -> JSONValue? {
        if case .object(let members) = self { return members[member] }
        return nil
    }

    /// The number, when this is one.
    var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
}

/// The string formats real documents use; others are not checked (JSON Schema makes `format` an annotation
/// unless a validator knows it).
enum Formats {
    /// Whether `text` is a valid `format`; nil for a format not checked.
    static func check(_ format: String, _ text: String) -> Bool? {
        switch format {
        case "date-time":
            return text.wholeMatch(
                of:
                    /\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)/
            ) != nil
        case "date": return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil && validDate(text)
        case "uuid":
            return text.wholeMatch(of: /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/)
                != nil
        case "email": return text.wholeMatch(of: /[^@\s]+@[^@\s]+\.[^@\s]+/) != nil
        case "uri":
            guard let components = URLComponents(string: text), let scheme = components.scheme else { return false }
            return !scheme.isEmpty
        default: return nil
        }
    }

    private static func validDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return false }
        let days = [
            31, parts[0] % 4 == 0 && (parts[0] % 100 != 0 || parts[0] % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30,
            31, 30, 31,
        ]
        return (1...days[parts[1] - 1]).contains(parts[2])
    }
}
