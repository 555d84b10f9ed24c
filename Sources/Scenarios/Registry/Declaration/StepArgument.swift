public import SharedValues

/// One argument of a step, declared once — its key, type, whether it is required or its default, and a
/// line of help — and read back, typed, from the ``StepInput`` of the step being built. The load-time
/// checks, `${…}` resolution, usage text, the step catalogue and the schema all come from it.
///
/// ```swift
/// static let book = StepArgument<Int>.required("book", .integer, "The book's ID")
/// static let member = StepArgument<String>.required("member", .string, "Who borrows it")
/// static let due = StepArgument<Int?>.optional("days", .integer(in: 1...90), "Loan length in days")
/// static let copies = StepArgument<Int>.optional("copies", .integer(in: 1...9), default: 1)
/// ```
public struct StepArgument<Value: Sendable>: Sendable {
    /// The argument as the engine handles it, its type erased.
    public let erased: AnyStepArgument
    /// What the step reads when the argument was left out; `nil` for a required one.
    @usableFromInline
    let absent: Resolvable<Value>?

    @usableFromInline
    init(erased: AnyStepArgument, absent: Resolvable<Value>?) {
        self.erased = erased
        self.absent = absent
    }

    // The declarations are inlinable so that an app's arguments read their values in code specialized
    // to their types: no generic metadata is looked up for every argument of every step loaded.

    /// An argument the step cannot do without.
    @inlinable
    public static func required(_ key: String, _ type: ArgumentType<Value>, _ help: String = "") -> StepArgument {
        StepArgument(
            erased: AnyStepArgument(key: key, type: type, help: help, isRequired: true, describeDefault: nil),
            absent: nil
        )
    }

    /// An argument that may be left out; the step then reads `value`.
    @inlinable
    public static func optional(
        _ key: String,
        _ type: ArgumentType<Value>,
        default value: Value,
        _ help: String = ""
    ) -> StepArgument {
        StepArgument(
            erased: AnyStepArgument(
                key: key,
                type: type,
                help: help,
                isRequired: false,
                describeDefault: { "\(value)" }
            ),
            absent: Resolvable(value)
        )
    }

    /// An argument that may be left out; the step then reads `nil`.
    @inlinable
    public static func optional<Wrapped: Sendable>(_ key: String, _ type: ArgumentType<Wrapped>, _ help: String = "")
        -> StepArgument
    where Value == Wrapped? {
        let read = type.read
        let optionalType = ArgumentType<Wrapped?>(
            name: type.name,
            schema: type.schema,
            nameKind: type.nameKind,
            takesStructure: type.takesStructure,
            namedSchema: type.namedSchema
        ) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<Wrapped?> in
            try read(node, build).wrapped()
        }
        return StepArgument(
            erased: AnyStepArgument(key: key, type: optionalType, help: help, isRequired: false, describeDefault: nil),
            absent: Resolvable(nil)
        )
    }

    /// The key as written in scenario files.
    @inlinable
    public var key: String { erased.key }
}

/// An ``StepArgument`` with its type erased, as forms, the catalogue and the schema list it.
public struct AnyStepArgument: Sendable {
    /// The key in a mapping (`status`); for a form that is one value, a placeholder for help (`STATUS`).
    public let key: String
    /// The type's name for people: `integer 100…599`.
    public let typeName: String
    /// The JSON Schema of the values a file may write.
    public let schema: JSONValue
    /// Which of the app's names it refers to, if any.
    public let nameKind: NameKind?
    /// What the argument means, for the catalogue and the schema.
    public let help: String
    /// Whether the argument must be written.
    public let isRequired: Bool
    /// The default when left out, as text (`200`); `nil` when there is none or it reads as nothing.
    public var defaultText: String? { describeDefault?() }
    /// Makes ``defaultText`` when it is read (the catalogue, the schema). Made when the step is declared,
    /// the text of a generic value asks the runtime which text protocols its type conforms to — a first
    /// walk over every conformance record of the program for each type: about a million instructions at
    /// each process's start for each type of default, for help that a run never shows.
    @usableFromInline
    let describeDefault: (@Sendable () -> String)?
    /// Whether a form that is this one value also takes a mapping or a list.
    public let takesStructure: Bool
    /// The schema once the app's names are known (see ``ArgumentType/namedSchema``).
    public let namedSchema: @Sendable ([String]) -> JSONValue
    @usableFromInline
    let read: @Sendable (StepArguments, StepBuildContext) throws(StepArgumentError) -> any Sendable

    @inlinable
    init<Value: Sendable>(
        key: String,
        type: ArgumentType<Value>,
        help: String,
        isRequired: Bool,
        describeDefault: (@Sendable () -> String)?
    ) {
        self.key = key
        self.typeName = type.name
        self.schema = type.schema
        self.nameKind = type.nameKind
        self.help = help
        self.isRequired = isRequired
        self.describeDefault = describeDefault
        self.takesStructure = type.takesStructure
        self.namedSchema = type.namedSchema
        let read = type.read
        self.read = { (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> any Sendable in
            try read(node, build)
        }
    }
}
