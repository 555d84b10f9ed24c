/// One way a step's arguments may be written; a definition lists the forms it accepts, and the loader
/// picks the one that fits (or says which it takes).
///
/// ```swift
/// forms: [.none]                                         // `wait for requests`
/// forms: [.value(seconds)]                               // `wait: 0.5`
/// forms: [.list(factories)]                              // `create from factories: [a, b]`
/// forms: [.mapping(entity, count, conditions)]           // `expect entities: { entity: Review, count: 0 }`
/// ```
public struct ArgumentForm: Sendable, CustomStringConvertible {
    /// Which shape a form has: nothing, one value, a list, or a mapping.
    public enum Kind: Sendable {
        /// Nothing after the name.
        case none
        /// One value after the name (`suspend queue: true`); the argument may be optional.
        case value
        /// A list after the name, each element of the argument's type.
        case list
        /// A mapping with these keys.
        case mapping
    }

    /// The form's shape.
    public let kind: Kind
    /// The arguments of this form: one for `value` and `list`, the keys for `mapping`.
    public let arguments: [AnyStepArgument]
    /// The required keys of a mapping form (kept: every step of a file is matched against them).
    let requiredKeys: [String]

    init(kind: Kind, arguments: [AnyStepArgument]) {
        self.kind = kind
        self.arguments = arguments
        self.requiredKeys = arguments.filter(\.isRequired).map(\.key)
    }

    /// No arguments.
    public static let none = ArgumentForm(kind: .none, arguments: [])

    /// One value; written alone after the step's name.
    public static func value<V>(_ argument: StepArgument<V>) -> ArgumentForm {
        ArgumentForm(kind: .value, arguments: [argument.erased])
    }

    /// A list of values of the argument's type.
    public static func list<V>(_ argument: StepArgument<V>) -> ArgumentForm {
        ArgumentForm(kind: .list, arguments: [argument.erased])
    }

    /// A mapping of these keys (each required or optional as declared).
    public static func mapping(_ arguments: AnyStepArgument...) -> ArgumentForm {
        ArgumentForm(kind: .mapping, arguments: arguments)
    }

    /// A mapping of these keys (each required or optional as declared).
    public static func mapping(_ arguments: [AnyStepArgument]) -> ArgumentForm {
        ArgumentForm(kind: .mapping, arguments: arguments)
    }

    /// `{class, method, to, status?}`, `SECONDS`, `[FACTORY, ...]`, `nothing`.
    public var description: String {
        switch kind {
        case .none: return "nothing"
        case .value:
            let argument = arguments[0]
            return argument.isRequired ? argument.key.uppercased() : "[\(argument.key.uppercased())]"
        case .list: return "[\(arguments[0].key.uppercased()), ...]"
        case .mapping:
            return "{" + arguments.map { $0.isRequired ? $0.key : $0.key + "?" }.joined(separator: ", ") + "}"
        }
    }
}

extension StepArgument {
    /// The argument for a form's list: `.mapping(entity.any, count.any)`.
    public var any: AnyStepArgument { erased }
}
