/// A value a step can bind with `as: NAME`, read back in later arguments as `${NAME}` or `${NAME.key.path}`.
public protocol Bindable: Sendable {
    /// The text for a key path (`"restaurantID"`, `"author.name"`); the empty key path means the value itself.
    /// Returns `nil` when the value has no such attribute.
    func value(forKeyPath keyPath: String) -> String?
}

extension String: Bindable {
    /// The string itself for the empty key path; strings have no attributes.
    public func value(forKeyPath keyPath: String) -> String? {
        keyPath.isEmpty ? self : nil
    }
}

extension Dictionary: Bindable where Key == String, Value == String {
    /// The value for the key path; the empty key path renders the dictionary's keys and values.
    public func value(forKeyPath keyPath: String) -> String? {
        if keyPath.isEmpty {
            return "{" + sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
        return self[keyPath]
    }
}
