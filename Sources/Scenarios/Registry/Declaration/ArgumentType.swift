import Diagnostics
public import SharedValues

/// What a step argument accepts, declared once: how it reads a value (at load, and when written with
/// `${…}` at run time), how the catalogue and the schema describe it, and the vocabulary it names.
///
/// ```swift
/// StepArgument<Int>.required("book", .integer, "The book's ID")
/// StepArgument<String>.required("entity", .entity)
/// StepArgument<ReachabilityStatus>.required("status", .choice(ReachabilityStatus.self))
/// ```
public struct ArgumentType<Value: Sendable>: Sendable {
    /// How the catalogue names the type: `integer`, `seconds`, `entity name`, `one of: a, b`.
    public let name: String
    /// The JSON Schema (draft 2020-12) of what a file may write (`${…}` references included).
    public let schema: JSONValue
    /// The app names it refers to, checked at load (and listed as an enum in the schema).
    public let nameKind: NameKind?
    /// Whether a form that is this one value also takes a mapping or a list (JSON, a route).
    public let takesStructure: Bool
    /// The schema once the app's names of ``nameKind`` are known (sorted): by default one of them.
    public let namedSchema: @Sendable ([String]) -> JSONValue
    /// Reads the node as written, checking it at load (a located error); a scalar with `${…}` in it is
    /// converted when the step runs.
    public let read: @Sendable (StepArguments, StepBuildContext) throws(StepArgumentError) -> Resolvable<Value>

    /// Makes a type from its parts; most types come from the static builders (`.integer`, `.entity`,
    /// `.choice(_:)`) instead.
    public init(
        name: String,
        schema: JSONValue,
        nameKind: NameKind? = nil,
        takesStructure: Bool = false,
        namedSchema: @escaping @Sendable ([String]) -> JSONValue = { ["enum": .array($0.map(JSONValue.string))] },
        read: @escaping @Sendable (StepArguments, StepBuildContext) throws(StepArgumentError) -> Resolvable<Value>
    ) {
        self.name = name
        self.schema = schema
        self.nameKind = nameKind
        self.takesStructure = takesStructure
        self.namedSchema = namedSchema
        self.read = read
    }

    /// A type read from one scalar's text by `parse` (`nil` when the text is not a value of it, and then
    /// `expected` says what is). Text with `${…}` is parsed when the step runs, failing there at its
    /// location; `literalOnly` types (names checked at load) refuse references.
    public static func scalar(
        name: String,
        schema: JSONValue,
        expected: String,
        nameKind: NameKind? = nil,
        literalOnly: Bool = false,
        parse: @escaping @Sendable (String) -> Value?
    ) -> ArgumentType {
        let referenceSchema: JSONValue = ["type": "string", "pattern": "\\$\\{"]
        return ArgumentType(
            name: name,
            schema: literalOnly ? schema : ["anyOf": [schema, referenceSchema]],
            nameKind: nameKind
        ) { (node: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Resolvable<Value> in
            guard case .scalar(let text, _) = node.content else {
                throw StepArgumentError(
                    "\(node.subject) takes \(expected), not \(node.kindDescription).",
                    at: node.location
                )
            }
            if !literalOnly, text.containsReference {
                let location = node.location
                let subject = node.subject
                return Resolvable(written: text) { context in
                    let resolved = try context.interpolate(text)
                    guard let value = parse(resolved) else {
                        throw StepArgumentError(
                            "\(subject) takes \(expected), not '\(resolved)' (from '\(text)').",
                            at: location
                        )
                    }
                    return value
                }
            }
            guard let value = parse(text) else {
                throw StepArgumentError("\(node.subject) takes \(expected), not '\(text)'.", at: node.location)
            }
            return Resolvable(value)
        }
    }
}

extension ArgumentType where Value == String {
    /// Any text; `${…}` inside is resolved when the step runs.
    public static var string: ArgumentType {
        textType
    }

    /// A name of the app's vocabulary (entity, factory, route...), checked at load with a suggestion.
    public static func name(_ kind: NameKind) -> ArgumentType {
        let read = ArgumentType.scalar(
            name: "\(kind) name",
            schema: ["type": "string"],
            expected: "a name",
            nameKind: kind,
            literalOnly: true
        ) { $0 }.read
        return ArgumentType(name: "\(kind) name", schema: ["type": "string"], nameKind: kind) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<String> in
            let value = try read(node, build)
            if let name = value.literal { try build.vocabulary.check(name, is: kind, at: node.location) }
            return value
        }
    }

    /// An entity of the app's model: `Review`.
    public static var entity: ArgumentType { entityType }
    /// A named factory: `restaurant`.
    public static var factory: ArgumentType { factoryType }
    /// A named route: `restaurants`.
    public static var namedRoute: ArgumentType { namedRouteType }

    /// One of fixed words, matched case-insensitively; anything else lists them.
    public static func choice(_ words: [String]) -> ArgumentType {
        let list = words.map { "'\($0)'" }.joined(separator: ", ")
        return ArgumentType(
            name: "one of " + words.joined(separator: ", "),
            schema: ["enum": .array(words.map(JSONValue.string))]
        ) {
            (node: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Resolvable<String> in
            guard case .scalar(let text, _) = node.content else {
                throw StepArgumentError(
                    "\(node.subject) takes one of \(list), not \(node.kindDescription).",
                    at: node.location
                )
            }
            guard let word = words.first(where: { $0.lowercased() == text.lowercased() }) else {
                throw StepArgumentError(
                    "\(node.subject) takes one of \(list), not '\(text)'."
                        + Suggestions.didYouMean(text, in: words),
                    at: node.location
                )
            }
            return Resolvable(word)
        }
    }

    /// The name of an object bound earlier with `as:`, written bare (`place`) or as `${place}`.
    public static var boundObject: ArgumentType {
        boundObjectType
    }
}

extension ArgumentType where Value == Int {
    /// A whole number.
    public static var integer: ArgumentType { integerType }

    /// A whole number in `range`.
    public static func integer(in range: ClosedRange<Int>) -> ArgumentType {
        let bounded = range != Int.min...Int.max
        var schema: [String: JSONValue] = ["type": "integer"]
        if bounded {
            schema["minimum"] = .int(range.lowerBound)
            schema["maximum"] = .int(range.upperBound)
        }
        let expected = bounded ? "an integer from \(range.lowerBound) to \(range.upperBound)" : "an integer"
        return .scalar(
            name: bounded ? "integer \(range.lowerBound)…\(range.upperBound)" : "integer",
            schema: .object(schema),
            expected: expected
        ) { text in Int(text).flatMap { range.contains($0) ? $0 : nil } }
    }
}

extension ArgumentType where Value == Double {
    /// A number.
    public static var number: ArgumentType {
        numberType
    }
}

extension ArgumentType where Value == Duration {
    /// A number of seconds from 0 to 86400 (a day).
    public static var seconds: ArgumentType {
        secondsType
    }
}

extension ArgumentType where Value == Bool {
    /// `true` or `false` (also yes/no, on/off).
    public static var boolean: ArgumentType {
        booleanType
    }
}

extension ArgumentType where Value == JSONValue {
    /// Any YAML value as JSON (mappings become objects); `${…}` in its strings resolved when the step runs.
    public static var json: ArgumentType {
        jsonType
    }
}

extension ArgumentType where Value == [String: String] {
    /// A mapping of names to scalar values (`headers`, `parameters`); `${…}` in values resolved when the step runs.
    public static var textMapping: ArgumentType {
        textMappingType
    }
}

extension ArgumentType {
    /// A list of values of `element`.
    public static func list<Element: Sendable>(of element: ArgumentType<Element>) -> ArgumentType<[Element]> {
        ArgumentType<[Element]>(
            name: "list of \(element.name)",
            schema: ["type": "array", "items": element.schema],
            nameKind: element.nameKind,
            namedSchema: { names in ["type": "array", "items": element.namedSchema(names)] }
        ) { (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<[Element]> in
            let items = try node.list()
            var values: [Resolvable<Element>] = []
            for var item in items {
                item.key = node.key
                item.boundNames = node.boundNames
                values.append(try element.read(item, build))
            }
            let read = values
            if read.allSatisfy({ $0.literal != nil }) { return Resolvable(read.compactMap(\.literal)) }
            return Resolvable { context in try read.map { try $0.resolve(in: context) } }
        }
    }

    /// Values of an enumeration spelled by their raw values (`reachable via wifi`).
    public static func choice<T: RawRepresentable & CaseIterable & Sendable>(_ type: T.Type) -> ArgumentType<T>
    where T.RawValue == String {
        let words = T.allCases.map(\.rawValue)
        let read = ArgumentType<String>.choice(words).read
        return ArgumentType<T>(
            name: "one of " + words.joined(separator: ", "),
            schema: ["enum": .array(words.map(JSONValue.string))]
        ) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<T> in
            let word = try read(node, build)
            guard let text = word.literal, let value = T(rawValue: text) else {
                throw StepArgumentError("'\(node.displayKey)' has no value.", at: node.location)
            }
            return Resolvable(value)
        }
    }

    /// This type, with its values checked or turned by `transform` at load (a located error when it throws a message).
    public func checked(
        _ check: @escaping @Sendable (Value, StepArguments, StepBuildContext) throws(StepArgumentError) -> Void
    ) -> ArgumentType {
        let read = self.read
        return ArgumentType(
            name: name,
            schema: schema,
            nameKind: nameKind,
            takesStructure: takesStructure,
            namedSchema: namedSchema
        ) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<Value> in
            let value = try read(node, build)
            if let literal = value.literal { try check(literal, node, build) }
            return value
        }
    }
}

extension JSONValue {
    /// Whether a string inside holds a `${…}` reference.
    var hasReferences: Bool {
        switch self {
        case .string(let text): text.containsReference
        case .array(let items): items.contains { $0.hasReferences }
        case .object(let members): members.values.contains { $0.hasReferences }
        default: false
        }
    }

    /// The value with `${…}` in its strings resolved.
    public func interpolated(in context: ScenarioContext) throws -> JSONValue {
        switch self {
        case .string(let text): .string(try context.interpolate(text))
        case .array(let items): .array(try items.map { try $0.interpolated(in: context) })
        case .object(let members): .object(try members.mapValues { try $0.interpolated(in: context) })
        default: self
        }
    }
}

extension ArgumentValue {
    /// The value as JSON (mappings become objects).
    public var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .list(let items): .array(items.map(\.jsonValue))
        case .mapping(let entries):
            .object(Dictionary(entries.map { ($0.key, $0.value.jsonValue) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

extension ArgumentType {
    /// Reads a node that must be known at load: its value, or a located error for a `${…}` reference.
    public func readLiteral(_ node: StepArguments, _ build: StepBuildContext) throws(StepArgumentError) -> Value {
        guard let value = try read(node, build).literal else {
            throw StepArgumentError(
                "'\(node.key ?? "value")' must be written out here: a '${…}' reference is known only when the step runs.",
                at: node.location
            )
        }
        return value
    }
}

/// Built once: the built-in types are read for every argument of every step loaded.
private let textType: ArgumentType<String> = {
    let read = ArgumentType.scalar(
        name: "text",
        schema: ["type": ["string", "number", "boolean"]],
        expected: "text",
        literalOnly: true
    ) { $0 }.read
    return ArgumentType(name: "text", schema: ["type": ["string", "number", "boolean"]]) {
        (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<String> in
        let value = try read(node, build)
        guard let text = value.literal, text.containsReference else { return value }
        return Resolvable(text) { text, context in try context.interpolate(text) }
    }
}()

/// Built once: the built-in types are read for every argument of every step loaded.
private let boundObjectType: ArgumentType<String> = {
    ArgumentType(name: "bound name", schema: ["type": "string"]) {
        (node: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Resolvable<String> in
        guard case .scalar = node.content else {
            throw StepArgumentError(
                "\(node.subject) takes a name bound with 'as:', not \(node.kindDescription).",
                at: node.location
            )
        }
        return Resolvable(try node.boundName())
    }
}()

/// Built once: the built-in types are read for every argument of every step loaded.
private let numberType: ArgumentType<Double> = {
    .scalar(name: "number", schema: ["type": "number"], expected: "a number") { text in
        Double(text).flatMap { $0.isFinite ? $0 : nil }
    }
}()

/// Built once: the built-in types are read for every argument of every step loaded.
private let secondsType: ArgumentType<Duration> = {
    .scalar(
        name: "seconds",
        schema: ["type": "number", "minimum": 0, "maximum": 86_400],
        expected: "a number of seconds from 0 to 86400 (a day)"
    ) { text in Double(text).flatMap { Duration(checkedSeconds: $0) } }
}()

/// Built once: the built-in types are read for every argument of every step loaded.
private let booleanType: ArgumentType<Bool> = {
    .scalar(name: "true or false", schema: ["type": "boolean"], expected: "true or false") { text in
        switch text.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }
}()

/// Built once: the built-in types are read for every argument of every step loaded.
private let jsonType: ArgumentType<JSONValue> = {
    ArgumentType(name: "JSON", schema: [:], takesStructure: true) {
        (node: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Resolvable<JSONValue> in
        let value = node.value.jsonValue
        return value.hasReferences
            ? Resolvable(value) { value, context in try value.interpolated(in: context) }
            : Resolvable(value)
    }
}()

/// Built once: the built-in types are read for every argument of every step loaded.
private let textMappingType: ArgumentType<[String: String]> = {
    ArgumentType(
        name: "mapping of names to text",
        schema: ["type": "object", "additionalProperties": ["type": ["string", "number", "boolean"]]]
    ) { (node: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Resolvable<[String: String]> in
        guard case .mapping(let entries) = node.content else {
            throw StepArgumentError(
                "\(node.subject) takes a mapping of names to values, not \(node.kindDescription).",
                at: node.location
            )
        }
        var values: [String: String] = [:]
        for entry in entries { values[entry.key] = try entry.value.scalar() }
        guard values.values.contains(where: { $0.containsReference }) else { return Resolvable(values) }
        return Resolvable(values) { values, context in try values.mapValues { try context.interpolate($0) } }
    }
}()

/// Built once, as the types above.
private let integerType = ArgumentType<Int>.integer(in: Int.min...Int.max)
private let entityType = ArgumentType<String>.name(.entity)
private let factoryType = ArgumentType<String>.name(.factory)
private let namedRouteType = ArgumentType<String>.name(.namedRoute)
