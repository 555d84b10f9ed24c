public import Diagnostics

/// The arguments written after a step's name, with the source location of every node: what an
/// ``ArgumentType``'s `read` gets. A step reads its arguments through its declared ``StepArgument``s
/// (``StepInput``), not from here.
///
/// ```swift
/// guard case .scalar(let text, _) = node.content else {
///     throw StepArgumentError("'\(node.key ?? "value")' takes a word.", at: node.location)
/// }
/// ```
public struct StepArguments: Sendable {
    /// What was written.
    public enum Content: Sendable {
        /// No arguments: a bare step name, or a name followed by nothing.
        case none
        /// One scalar; `isPlain` is false for quoted scalars, which never resolve to numbers or booleans.
        case scalar(String, isPlain: Bool)
        /// A list of nodes.
        case sequence([StepArguments])
        /// A mapping's keys and values, in the order written.
        case mapping([Entry])
    }

    /// One key of a mapping, where it is written, and its value.
    public struct Entry: Sendable {
        /// The key as written.
        public var key: String
        /// Where the key is written.
        public var keyLocation: SourceLocation
        /// The key's value.
        public var value: StepArguments

        /// Makes an entry of a mapping.
        public init(key: String, keyLocation: SourceLocation, value: StepArguments) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    /// What was written at this node.
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

    /// Makes a node of `content` written at `location`, for the step named `stepName`; `bindingName` is the
    /// name given with `as:`, if any.
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

    // MARK: Plain values

    /// The arguments as a plain value tree, keeping mapping key order.
    package var value: ArgumentValue {
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
        var scalars: [(text: String, location: SourceLocation)] = []
        forEachScalar { scalars.append(($0, $1)) }
        return scalars
    }

    /// Calls `body` with every scalar string in the arguments (mapping keys excluded) and its location,
    /// in order, making no list of them.
    package func forEachScalar(_ body: (String, SourceLocation) -> Void) {
        switch content {
        case .none: break
        case .scalar(let text, _): body(text, location)
        case .sequence(let items): for item in items { item.forEachScalar(body) }
        case .mapping(let entries): for entry in entries { entry.value.forEachScalar(body) }
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
}
