public import Diagnostics

/// A step's arguments read by its definition's forms: which form was written, and each declared
/// argument's value, typed. What a definition's build closure receives.
///
/// ```swift
/// let status = try input[Self.status].resolve(in: context)   // Int
/// if input.form == 1 { … }                                    // the second form was written
/// ```
public struct StepInput: Sendable {
    /// One argument that was written: its value (a `Resolvable` of the argument's type), where, and
    /// its node. A step has a handful, so a list searched by key is cheaper than dictionaries.
    @usableFromInline
    struct Written: Sendable {
        @usableFromInline let key: String
        @usableFromInline let value: any Sendable
        @usableFromInline let location: SourceLocation
        let node: StepArguments?
    }

    /// The index of the form that was written, in the definition's `forms`.
    public let form: Int
    /// The name given with `as:`, for definitions that bind names.
    public var bindingName: String? { arguments.bindingName }
    /// Where the arguments start (the step's name when there are none).
    public let location: SourceLocation
    /// The step's arguments as written, for descriptions: `stub route {class: Review, method: POST, to: /422}`.
    public var sourceDescription: String { arguments.sourceDescription }
    @usableFromInline
    let written: [Written]
    /// The arguments as written, for built-in steps that hand them to another parser (the stub server's).
    package let arguments: StepArguments

    init(form: Int, location: SourceLocation, written: [Written], arguments: StepArguments) {
        self.form = form
        self.location = location
        self.written = written
        self.arguments = arguments
    }

    /// The index in `written` of the argument with this key.
    @inlinable
    func find(_ key: String) -> Int? {
        for index in written.indices where written[index].key == key { return index }
        return nil
    }

    /// The argument's value; its default (or `nil`) when it was left out.
    @inlinable
    public subscript<Value>(argument: StepArgument<Value>) -> Resolvable<Value> {
        if let index = find(argument.key), let value = written[index].value as? Resolvable<Value> { return value }
        if let absent = argument.absent { return absent }
        return Self.notWritten(argument.key, at: location)
    }

    /// A required argument of another form than the one written: the step fails saying so, never traps.
    @usableFromInline
    static func notWritten<Value>(_ key: String, at location: SourceLocation) -> Resolvable<Value> {
        Resolvable { _ in
            throw StepArgumentError("'\(key)' was not written; this form of the step does not take it.", at: location)
        }
    }

    /// The optional argument's value as written (any `${…}` inside its strings left for the step to
    /// resolve), or `nil` when it was left out.
    @inlinable
    public func written<Wrapped>(_ argument: StepArgument<Wrapped?>) -> Wrapped? {
        self[argument].asWritten ?? nil
    }

    /// Whether the argument was written.
    @inlinable
    public func has<Value>(_ argument: StepArgument<Value>) -> Bool {
        find(argument.key) != nil
    }

    /// The value when it is known at load (no `${…}`), else throws at the argument: for steps whose
    /// argument must be known before the run (a route to check, a name to bind).
    @inlinable
    public func literal<Value>(_ argument: StepArgument<Value>) throws(StepArgumentError) -> Value {
        let value = self[argument]
        guard let literal = value.literal else { throw Self.notLiteral(argument.key, at: location(of: argument)) }
        return literal
    }

    @usableFromInline
    static func notLiteral(_ key: String, at location: SourceLocation) -> StepArgumentError {
        StepArgumentError(
            "'\(key)' must be written out here: a '${…}' reference is known only when the step runs.",
            at: location
        )
    }

    /// The argument's value as written, with every node's location (for checks of its keys).
    package func node<Value>(of argument: StepArgument<Value>) -> StepArguments? {
        find(argument.key).flatMap { written[$0].node }
    }

    /// The value as written, any `${…}` inside its strings left for the step to resolve itself (text a
    /// step interpolates when it runs, like a path); throws at the argument when the whole value is a
    /// reference only the run can convert.
    @inlinable
    public func asWritten<Value>(_ argument: StepArgument<Value>) throws(StepArgumentError) -> Value {
        guard let value = self[argument].asWritten else { return try literal(argument) }
        return value
    }

    /// Where the argument's value is written (the arguments' start when it was left out).
    @inlinable
    public func location<Value>(of argument: StepArgument<Value>) -> SourceLocation {
        find(argument.key).map { written[$0].location } ?? location
    }

    /// Reads `arguments` by `forms`: the form that fits (a mapping's required keys all present and no
    /// unknown key; several fitting, the one with the most required keys), then every value by its type.
    static func read(
        _ arguments: StepArguments,
        forms: [ArgumentForm],
        build: StepBuildContext
    ) throws(StepArgumentError) -> StepInput {
        let index = try choose(arguments, forms)
        let form = forms[index]
        var written: [Written] = []
        switch form.kind {
        case .none:
            break
        case .value:
            let argument = form.arguments[0]
            if !arguments.isEmpty {
                let value = try argument.read(arguments, build)
                written.append(Written(key: argument.key, value: value, location: arguments.location, node: nil))
            }
        case .list:
            let argument = form.arguments[0]
            let value = try argument.read(arguments, build)
            written.append(Written(key: argument.key, value: value, location: arguments.location, node: nil))
        case .mapping:
            if case .mapping(let entries) = arguments.content {
                written.reserveCapacity(entries.count)
                for entry in entries {
                    // By index: an argument is a large value, not copied for each key.
                    guard let index = form.arguments.indices.first(where: { form.arguments[$0].key == entry.key })
                    else { continue }
                    var node = entry.value
                    node.key = entry.key
                    node.boundNames = arguments.boundNames
                    let value = try form.arguments[index].read(node, build)
                    written.append(Written(key: entry.key, value: value, location: entry.value.location, node: node))
                }
            }
        }
        return StepInput(form: index, location: arguments.location, written: written, arguments: arguments)
    }

    private static func choose(_ arguments: StepArguments, _ forms: [ArgumentForm]) throws(StepArgumentError) -> Int {
        var best: (index: Int, required: Int)?
        for (index, form) in forms.enumerated() {
            switch (form.kind, arguments.content) {
            case (.none, .none):
                return index
            case (.value, .none) where !form.arguments[0].isRequired:
                return index
            case (.value, .scalar), (.list, .sequence):
                return index
            case (.value, .mapping), (.value, .sequence):
                // A value form whose type reads structures (JSON) takes them too.
                if form.arguments[0].takesStructure { return index }
            case (.mapping, .mapping(let entries)):
                let required = form.requiredKeys
                guard required.count > best?.required ?? -1,
                    entries.allSatisfy({ entry in form.arguments.contains { $0.key == entry.key } }),
                    required.allSatisfy({ key in entries.contains { $0.key == key } })
                else { continue }
                best = (index, required.count)
            default:
                continue
            }
        }
        if let best { return best.index }
        throw mismatch(arguments, forms)
    }

    /// Why no form fits, at the most telling place: an unknown key (with a suggestion), a missing
    /// required key, or the forms the step takes.
    private static func mismatch(_ arguments: StepArguments, _ forms: [ArgumentForm]) -> StepArgumentError {
        let mappings = forms.filter { $0.kind == .mapping }
        if case .mapping(let entries) = arguments.content, !mappings.isEmpty {
            let known = Set(mappings.flatMap { $0.arguments.map(\.key) })
            if let unknown = entries.first(where: { !known.contains($0.key) }) {
                return StepArgumentError(
                    "Unknown argument '\(unknown.key)' for step '\(arguments.stepName)'."
                        + Suggestions.didYouMeanOrKnown(unknown.key, in: known, label: "It takes"),
                    at: unknown.keyLocation
                )
            }
            if mappings.count == 1,
                let missing = mappings[0].requiredKeys.first(where: { !arguments.keys.contains($0) })
            {
                return StepArgumentError("Step '\(arguments.stepName)' needs '\(missing)'.", at: arguments.location)
            }
        }
        let accepted = forms.map(\.description).joined(separator: " or ")
        return StepArgumentError(
            "Step '\(arguments.stepName)' takes \(accepted), not \(arguments.kindDescription).",
            at: arguments.location
        )
    }
}

extension ArgumentForm.Kind: Equatable {}
