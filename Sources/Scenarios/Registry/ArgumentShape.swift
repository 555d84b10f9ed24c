/// One accepted form of a step's arguments, for ``StepArguments/oneOf(_:)``.
public enum ArgumentShape: Sendable, Hashable, CustomStringConvertible {
    /// A single value: `suspend queue: true`.
    case scalar
    /// A list: `create from factories: [restaurant, review]`.
    case list
    /// A mapping with these keys: `stub route: { class: Review, method: POST, to: /422 }`.
    case mapping(required: [String], optional: [String] = [])

    public var description: String {
        switch self {
        case .scalar: return "a value"
        case .list: return "a list"
        case .mapping(let required, let optional):
            return "{" + (required + optional.map { $0 + "?" }).joined(separator: ", ") + "}"
        }
    }
}
