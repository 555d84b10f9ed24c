/// A kind of name a step argument can refer to (an open set: step modules may add kinds).
public struct NameKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Entity names of the store: `Review`.
    public static let entity = NameKind(rawValue: "entity")
    /// Class routes, class and method: `Review POST`.
    public static let classRoute = NameKind(rawValue: "class route")
    /// Named routes: `reviews of restaurant`.
    public static let namedRoute = NameKind(rawValue: "named route")
    /// Relationship routes, relationship and class: `reviews Restaurant`.
    public static let relationshipRoute = NameKind(rawValue: "relationship route")
    /// Test factories: `restaurant`.
    public static let factory = NameKind(rawValue: "factory")
    /// Notification names.
    public static let notification = NameKind(rawValue: "notification")

    /// As used in messages: `class route`.
    public var description: String { rawValue }
}
