/// Maps the JSON value at a key path onto one attribute.
public struct AttributeMapping: Sendable, Hashable {
    /// The dotted key path in the source JSON (`created_at`, `user.name`).
    public var keyPath: String
    /// The destination attribute.
    public var attribute: String

    /// Maps the value at `keyPath` in the source JSON onto `attribute`.
    public init(fromKeyPath keyPath: String, toAttribute attribute: String) {
        self.keyPath = keyPath
        self.attribute = attribute
    }
}
