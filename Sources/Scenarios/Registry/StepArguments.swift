public import Diagnostics

/// The arguments written after a step's name, with the source location of every node, and typed
/// accessors that throw ``StepArgumentError`` at the offending node.
///
/// ```swift
/// let entity = try arguments.string("entity")
/// let count = try arguments.int("count")
/// try arguments.rejectUnknownKeys(allowed: ["entity", "count", "where"])
/// ```
public struct StepArguments: Sendable {
    /// What was written.
    public enum Content: Sendable {
        /// No arguments: a bare step name, or a name followed by nothing.
        case none
        /// One scalar; `isPlain` is false for quoted scalars, which never resolve to numbers or booleans.
        case scalar(String, isPlain: Bool)
        case sequence([StepArguments])
        case mapping([Entry])
    }

    /// One key of a mapping, where it is written, and its value.
    public struct Entry: Sendable {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: StepArguments

        public init(key: String, keyLocation: SourceLocation, value: StepArguments) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public var content: Content
    /// Where this node starts.
    public var location: SourceLocation
    /// The step's name as registered, for messages.
    public var stepName: String
    /// The name given with `as:`, for steps whose definition binds names; the loader strips `as` itself.
    public var bindingName: String?
    /// The names bound with `as:` before this step (the file's set-up included), as the loader knows
    /// them; `nil` when the step is built outside a scenario file, and then nothing is checked.
    public var boundNames: Set<String>?
    /// The mapping key this node is the value of, when a form reads it by key; `nil` for the whole argument.
    public var key: String?

    /// The key for messages: the mapping key, or `value` for a step's whole argument.
    var displayKey: String { key ?? "value" }

    /// Who takes this value, for messages: `'count' of step 'expect entities'`, or `Step 'wait'` for a
    /// step's whole argument.
    package var subject: String { key.map { "'\($0)' of step '\(stepName)'" } ?? "Step '\(stepName)'" }

    public init(_ content: Content, at location: SourceLocation, stepName: String, bindingName: String? = nil) {
        self.content = content
        self.location = location
        self.stepName = stepName
        self.bindingName = bindingName
    }

    /// No arguments, as the runner builds default set-up and tear-down steps.
    public static func none(stepName: String, at location: SourceLocation) -> StepArguments {
        StepArguments(.none, at: location, stepName: stepName)
    }

    /// The name of an object bound earlier with `as:`, written bare (`place`) or as `${place}`, at `key`;
    /// throws when no earlier step binds it.
    package func boundName(_ key: String) throws(StepArgumentError) -> String {
        guard var node = self[key] else {
            throw StepArgumentError("Step '\(stepName)' needs '\(key)'.", at: location)
        }
        node.key = key
        node.boundNames = boundNames
        return try node.boundName()
    }

    /// This scalar as the name of an object bound earlier with `as:`, written bare or as `${place}`.
    func boundName() throws(StepArgumentError) -> String {
        let key = displayKey
        let text = try scalar()
        let isReference = text.hasPrefix("${") && text.hasSuffix("}")  // the loader checks references itself
        let name = isReference ? String(text.dropFirst(2).dropLast()) : text
        if !isReference, let boundNames, !boundNames.contains(name) {
            throw StepArgumentError(
                "Unbound name '\(name)' in '\(key)'; bind it with 'as: \(name)' on an earlier step."
                    + Suggestions.didYouMeanOrKnown(name, in: boundNames, label: "Bound so far"),
                at: location
            )
        }
        return name
    }

    // MARK: Shape

    /// Whether there are no arguments.
    public var isEmpty: Bool {
        if case .none = content { return true }
        return false
    }

    /// The mapping's keys in order; empty for other shapes.
    public var keys: [String] {
        guard case .mapping(let entries) = content else { return [] }
        return entries.map(\.key)
    }

    /// The value written for `key`, if this is a mapping that has it.
    public subscript(key: String) -> StepArguments? {
        guard case .mapping(let entries) = content else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// Which of `shapes` the arguments have (its index); throws listing the accepted shapes.
    ///
    /// Mapping shapes match when every required key is present and every key is known; when several
    /// match, the one with the most required keys wins.
    public func oneOf(_ shapes: [ArgumentShape]) throws(StepArgumentError) -> Int {
        var best: (index: Int, required: Int)?
        for (index, shape) in shapes.enumerated() {
            switch (shape, content) {
            case (.scalar, .scalar):
                return index
            case (.list, .sequence):
                return index
            case (.mapping(let required, let optional), .mapping):
                // A handful of keys: linear checks, no sets.
                let present = keys
                if required.allSatisfy(present.contains),
                    present.allSatisfy({ required.contains($0) || optional.contains($0) }),
                    required.count > best?.required ?? -1
                {
                    best = (index, required.count)
                }
            default:
                continue
            }
        }
        if let best { return best.index }
        let accepted = shapes.map(\.description).joined(separator: " or ")
        throw StepArgumentError("Step '\(stepName)' takes \(accepted).", at: location)
    }

    /// Throws at the first key not in `allowed`, suggesting the nearest allowed key.
    public func rejectUnknownKeys(allowed: [String]) throws(StepArgumentError) {
        guard case .mapping(let entries) = content else { return }
        for entry in entries where !allowed.contains(entry.key) {
            throw StepArgumentError(
                "Unknown argument '\(entry.key)' for step '\(stepName)'."
                    + Suggestions.didYouMeanOrKnown(entry.key, in: allowed, label: "It takes"),
                at: entry.keyLocation
            )
        }
    }

    // MARK: Whole-argument accessors

    /// The whole argument as one scalar: `wait: 0.5`, `fail: Because`.
    public func scalar() throws(StepArgumentError) -> String {
        switch content {
        case .scalar(let text, _): return text
        case .none: throw StepArgumentError("Step '\(stepName)' needs a value.", at: location)
        default:
            throw StepArgumentError("Step '\(stepName)' takes a single value, not \(kindDescription).", at: location)
        }
    }

    /// The whole argument as a list.
    public func list() throws(StepArgumentError) -> [StepArguments] {
        switch content {
        case .sequence(let items): return items
        case .none: throw StepArgumentError("Step '\(stepName)' needs a list.", at: location)
        default: throw StepArgumentError("Step '\(stepName)' takes a list, not \(kindDescription).", at: location)
        }
    }

    /// The whole argument as a list of scalars.
    public func scalarList() throws(StepArgumentError) -> [String] {
        var out: [String] = []
        for item in try list() {
            guard case .scalar(let text, _) = item.content else {
                throw StepArgumentError(
                    "Step '\(stepName)' takes a list of values, not \(item.kindDescription).",
                    at: item.location
                )
            }
            out.append(text)
        }
        return out
    }

    /// The whole argument as a number: `wait: 0.5`.
    public func doubleValue() throws(StepArgumentError) -> Double {
        let text = try scalar()
        guard let value = Double(text) else {
            throw StepArgumentError("Step '\(stepName)' takes a number, not '\(text)'.", at: location)
        }
        return value
    }

    /// The whole argument as an integer: `expect pending requests: 2`.
    public func intValue() throws(StepArgumentError) -> Int {
        let text = try scalar()
        guard let value = Int(text) else {
            throw StepArgumentError("Step '\(stepName)' takes an integer, not '\(text)'.", at: location)
        }
        return value
    }

    /// The whole argument as an integer in `range`.
    public func intValue(in range: ClosedRange<Int>) throws(StepArgumentError) -> Int {
        let value = try intValue()
        guard range.contains(value) else {
            throw StepArgumentError(
                "Step '\(stepName)' takes an integer from \(range.lowerBound) to \(range.upperBound), not \(value).",
                at: location
            )
        }
        return value
    }

    /// The whole argument as a boolean: `suspend queue: true`.
    public func boolValue() throws(StepArgumentError) -> Bool {
        let text = try scalar()
        guard let value = Self.bool(text) else {
            throw StepArgumentError("Step '\(stepName)' takes true or false, not '\(text)'.", at: location)
        }
        return value
    }

    // MARK: Keyed accessors

    /// The value of a required key of a mapping argument.
    public func required(_ key: String) throws(StepArgumentError) -> StepArguments {
        switch content {
        case .mapping, .none: break
        default:
            throw StepArgumentError(
                "Step '\(stepName)' takes a mapping with '\(key)', not \(kindDescription).",
                at: location
            )
        }
        guard let value = self[key] else {
            throw StepArgumentError("Step '\(stepName)' needs '\(key)'.", at: location)
        }
        return value
    }

    /// A required string.
    public func string(_ key: String) throws(StepArgumentError) -> String {
        try required(key).scalarValue(of: key, stepName: stepName)
    }

    /// An optional string.
    public func optionalString(_ key: String) throws(StepArgumentError) -> String? {
        guard let value = try optional(key) else { return nil }
        return try value.scalarValue(of: key, stepName: stepName)
    }

    /// A required integer.
    public func int(_ key: String) throws(StepArgumentError) -> Int {
        try required(key).converted(key, "an integer") { Int($0) }
    }

    /// An optional integer.
    public func optionalInt(_ key: String) throws(StepArgumentError) -> Int? {
        try optional(key)?.converted(key, "an integer") { Int($0) }
    }

    /// An optional integer that must lie in `range`: `count: -1` is an error at the value.
    public func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(StepArgumentError) -> Int? {
        guard let value = try optionalInt(key) else { return nil }
        guard range.contains(value) else {
            throw StepArgumentError(
                "'\(key)' takes an integer from \(range.lowerBound) to \(range.upperBound), not \(value).",
                at: self[key]?.location ?? location
            )
        }
        return value
    }

    /// A required number.
    public func double(_ key: String) throws(StepArgumentError) -> Double {
        try required(key).converted(key, "a number") { Double($0) }
    }

    /// An optional number.
    public func optionalDouble(_ key: String) throws(StepArgumentError) -> Double? {
        try optional(key)?.converted(key, "a number") { Double($0) }
    }

    /// A required boolean (`true`/`false`, `yes`/`no`).
    public func bool(_ key: String) throws(StepArgumentError) -> Bool {
        try required(key).converted(key, "true or false") { Self.bool($0) }
    }

    /// An optional boolean.
    public func optionalBool(_ key: String) throws(StepArgumentError) -> Bool? {
        try optional(key)?.converted(key, "true or false") { Self.bool($0) }
    }

    /// A required mapping-valued key (`properties: { ... }`).
    public func mapping(_ key: String) throws(StepArgumentError) -> StepArguments {
        let value = try required(key)
        guard case .mapping = value.content else {
            throw StepArgumentError(
                "'\(key)' of step '\(stepName)' must be a mapping, not \(value.kindDescription).",
                at: value.location
            )
        }
        return value
    }

    /// An optional mapping-valued key.
    public func optionalMapping(_ key: String) throws(StepArgumentError) -> StepArguments? {
        guard try optional(key) != nil else { return nil }
        return try mapping(key)
    }

    // MARK: Plain values

    /// The arguments as a plain value tree, keeping mapping key order.
    public var value: ArgumentValue {
        switch content {
        case .none:
            return .null
        case .scalar(let text, let isPlain):
            return isPlain ? ArgumentValue.resolvingPlain(text) : .string(text)
        case .sequence(let items):
            return .list(items.map(\.value))
        case .mapping(let entries):
            return .mapping(entries.map { ArgumentValue.Entry($0.key, $0.value.value) })
        }
    }

    /// Every scalar string in the arguments (mapping keys excluded), with its location.
    public var scalars: [(text: String, location: SourceLocation)] {
        switch content {
        case .none: return []
        case .scalar(let text, _): return [(text, location)]
        case .sequence(let items): return items.flatMap(\.scalars)
        case .mapping(let entries): return entries.flatMap(\.value.scalars)
        }
    }

    /// The step as written, compactly: `stub route {class: Review, method: POST, to: /422}`.
    /// A good default description for steps.
    public var sourceDescription: String {
        isEmpty ? stepName : stepName + " " + rendered
    }

    // MARK: Helpers

    /// "a mapping", "a list", "a value", "nothing" — for messages.
    public var kindDescription: String {
        switch content {
        case .none: return "nothing"
        case .scalar(let text, _): return "'\(text)'"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    private var rendered: String {
        switch content {
        case .none: return "~"
        case .scalar(let text, _): return text
        case .sequence(let items): return "[" + items.map(\.rendered).joined(separator: ", ") + "]"
        case .mapping(let entries):
            return "{" + entries.map { "\($0.key): \($0.value.rendered)" }.joined(separator: ", ") + "}"
        }
    }

    private func optional(_ key: String) throws(StepArgumentError) -> StepArguments? {
        switch content {
        case .none: return nil
        case .mapping: return self[key]
        default:
            throw StepArgumentError(
                "Step '\(stepName)' takes a mapping with '\(key)', not \(kindDescription).",
                at: location
            )
        }
    }

    private func scalarValue(of key: String, stepName: String) throws(StepArgumentError) -> String {
        switch content {
        case .scalar(let text, _): return text
        case .none: return ""
        default:
            throw StepArgumentError(
                "'\(key)' of step '\(stepName)' must be a value, not \(kindDescription).",
                at: location
            )
        }
    }

    private func converted<T>(_ key: String, _ kind: String, _ convert: (String) -> T?) throws(StepArgumentError)
        -> T
    {
        let text = try scalarValue(of: key, stepName: stepName)
        guard let value = convert(text) else {
            throw StepArgumentError("'\(key)' of step '\(stepName)' must be \(kind), not '\(text)'.", at: location)
        }
        return value
    }

    private static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }
}
