/// Turns an object into a request body: attribute → JSON key path, optionally under a root key (the inverse of an ``EntityMapping``).
///
/// ```swift
/// let mapping = RequestMapping(attributes: ["title": "title", "restaurantID": "restaurant_id"], rootKey: "review")
/// mapping.body(for: review) // {"review": {"restaurant_id": 12345, "title": "Great"}}
/// ```
public struct RequestMapping: Sendable, Hashable {
    /// Which attribute goes to which key path (`keyPath` is the destination here).
    public var attributeMappings: [AttributeMapping]
    /// The key the body is nested under, if any.
    public var rootKey: String?

    /// A request mapping from attribute names to JSON key paths.
    public init(attributes: [String: String], rootKey: String? = nil) {
        self.init(
            attributeMappings: attributes.sorted { $0.key < $1.key }.map {
                AttributeMapping(fromKeyPath: $0.value, toAttribute: $0.key)
            },
            rootKey: rootKey
        )
    }

    /// A request mapping from attribute mappings (each attribute is written at its key path).
    public init(attributeMappings: [AttributeMapping], rootKey: String? = nil) {
        self.attributeMappings = attributeMappings
        self.rootKey = rootKey
    }

    /// The JSON body for `object`: each mapped attribute at its key path (nulls included), under ``rootKey``.
    public func body(for object: ManagedObject) -> JSONValue {
        var body = JSONValue.object([:])
        // Plain keys straight into one dictionary; a key path (`author.name`) through the nested objects.
        var plain: [String: JSONValue] = [:]
        plain.reserveCapacity(attributeMappings.count)
        for mapping in attributeMappings {
            let value = object[mapping.attribute].jsonValue
            if !mapping.keyPath.isEmpty, !mapping.keyPath.utf8.contains(UInt8(ascii: ".")) {
                plain[mapping.keyPath] = value
                continue
            }
            if !plain.isEmpty {
                body = Self.merging(plain, into: body)
                plain = [:]
            }
            let path = mapping.keyPath.split(ascii: UInt8(ascii: ".")).map(String.init)
            body = Self.setting(value, at: path[...], in: body)
        }
        if !plain.isEmpty { body = Self.merging(plain, into: body) }
        guard let rootKey else { return body }
        return .object([rootKey: body])
    }

    /// `members` set in `json`, in order, as ``setting(_:at:in:)`` sets each (`json` itself when it has none).
    private static func merging(_ members: [String: JSONValue], into json: JSONValue) -> JSONValue {
        guard var existing = json.objectValue, !existing.isEmpty else { return .object(members) }
        existing.merge(members) { _, new in new }
        return .object(existing)
    }

    private static func setting(_ value: JSONValue, at path: ArraySlice<String>, in json: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var members = json.objectValue ?? [:]
        members[key] = setting(value, at: path.dropFirst(), in: members[key] ?? .object([:]))
        return .object(members)
    }
}
