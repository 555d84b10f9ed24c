public import Diagnostics

/// A step's arguments read by its definition's forms: which form was written, and each declared
/// argument's value, typed. What a definition's build closure receives.
///
/// ```swift
/// let status = try input[Self.status].resolve(in: context)   // Int
/// if input.form == 1 { … }                                    // the second form was written
/// ```
public struct StepInput: Sendable {
    /// The index of the form that was written, in the definition's `forms`.
    public let form: Int
    /// The name given with `as:`, for definitions that bind names.
    public let bindingName: String?
    /// Where the arguments start (the step's name when there are none).
    public let location: SourceLocation
    /// The step's arguments as written, for descriptions: `stub route {class: Review, method: POST, to: /422}`.
    public let sourceDescription: String
    private let values: [String: any Sendable]
    private let locations: [String: SourceLocation]
    private let nodes: [String: StepArguments]
    /// The arguments as written, for built-in steps that hand them to another parser (the stub server's).
    package let arguments: StepArguments

    init(
        form: Int,
        bindingName: String?,
        location: SourceLocation,
        sourceDescription: String,
        values: [String: any Sendable],
        locations: [String: SourceLocation],
        nodes: [String: StepArguments],
        arguments: StepArguments
    ) {
        self.nodes = nodes
        self.arguments = arguments
        self.form = form
        self.bindingName = bindingName
        self.location = location
        self.sourceDescription = sourceDescription
        self.values = values
        self.locations = locations
    }

    /// The argument's value; its default (or `nil`) when it was left out.
    public subscript<Value>(argument: StepArgument<Value>) -> Resolvable<Value> {
        if let value = values[argument.key] as? Resolvable<Value> { return value }
        if let absent = argument.absent() { return absent }
        // A required argument of another form than the one written: the step fails saying so, never traps.
        let key = argument.key
        let location = self.location
        return Resolvable { _ in
            throw StepArgumentError("'\(key)' was not written; this form of the step does not take it.", at: location)
        }
    }

    /// The optional argument's value as written (any `${…}` inside its strings left for the step to
    /// resolve), or `nil` when it was left out.
    public func written<Wrapped>(_ argument: StepArgument<Wrapped?>) -> Wrapped? {
        self[argument].asWritten ?? nil
    }

    /// Whether the argument was written.
    public func has<Value>(_ argument: StepArgument<Value>) -> Bool {
        values[argument.key] != nil
    }

    /// The value when it is known at load (no `${…}`), else throws at the argument: for steps whose
    /// argument must be known before the run (a route to check, a name to bind).
    public func literal<Value>(_ argument: StepArgument<Value>) throws(StepArgumentError) -> Value {
        let value = self[argument]
        guard let literal = value.literal else {
            throw StepArgumentError(
                "'\(argument.key)' must be written out here: a '${…}' reference is known only when the step runs.",
                at: self.location(of: argument)
            )
        }
        return literal
    }

    /// The argument's value as written, with every node's location (for checks of its keys).
    package func node<Value>(of argument: StepArgument<Value>) -> StepArguments? {
        nodes[argument.key]
    }

    /// The value as written, any `${…}` inside its strings left for the step to resolve itself (text a
    /// step interpolates when it runs, like a path); throws at the argument when the whole value is a
    /// reference only the run can convert.
    public func asWritten<Value>(_ argument: StepArgument<Value>) throws(StepArgumentError) -> Value {
        guard let value = self[argument].asWritten else { return try literal(argument) }
        return value
    }

    /// Where the argument's value is written (the arguments' start when it was left out).
    public func location<Value>(of argument: StepArgument<Value>) -> SourceLocation {
        locations[argument.key] ?? location
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
        var values: [String: any Sendable] = [:]
        var locations: [String: SourceLocation] = [:]
        var nodes: [String: StepArguments] = [:]
        switch form.kind {
        case .none:
            break
        case .value:
            let argument = form.arguments[0]
            if !arguments.isEmpty {
                values[argument.key] = try argument.read(arguments, build)
                locations[argument.key] = arguments.location
            }
        case .list:
            let argument = form.arguments[0]
            values[argument.key] = try argument.read(arguments, build)
            locations[argument.key] = arguments.location
        case .mapping:
            if case .mapping(let entries) = arguments.content {
                for entry in entries {
                    guard let argument = form.arguments.first(where: { $0.key == entry.key }) else { continue }
                    var node = entry.value
                    node.key = entry.key
                    node.boundNames = arguments.boundNames
                    values[entry.key] = try argument.read(node, build)
                    locations[entry.key] = entry.value.location
                    nodes[entry.key] = node
                }
            }
        }
        return StepInput(
            form: index,
            bindingName: arguments.bindingName,
            location: arguments.location,
            sourceDescription: arguments.sourceDescription,
            values: values,
            locations: locations,
            nodes: nodes,
            arguments: arguments
        )
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
            case (.mapping, .mapping):
                let present = arguments.keys
                let known = form.arguments.map(\.key)
                let required = form.requiredKeys
                if required.allSatisfy(present.contains), present.allSatisfy(known.contains),
                    required.count > best?.required ?? -1
                {
                    best = (index, required.count)
                }
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
