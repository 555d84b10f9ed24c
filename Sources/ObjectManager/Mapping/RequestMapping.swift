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
        // The body's members, changed in place (not a new object made of them for every mapping); an empty
        // key path's value replaces the whole body, and a later key is set among its members, if any.
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(attributeMappings.count)
        var replaced: JSONValue?
        for mapping in attributeMappings {
            let value = object[mapping.attribute].jsonValue
            // A plain key (most are) is set as it is: no path made of it.
            if !mapping.keyPath.isEmpty, !mapping.keyPath.utf8.contains(UInt8(ascii: ".")) {
                replaced = nil
                members[mapping.keyPath] = value
                continue
            }
            let path = mapping.keyPath.split(ascii: UInt8(ascii: ".")).map(String.init)
            guard let key = path.first else {
                replaced = value
                members = value.objectValue ?? [:]
                continue
            }
            replaced = nil
            members[key] = Self.setting(value, at: path.dropFirst(), in: members[key] ?? .object([:]))
        }
        let body = replaced ?? .object(members)
        guard let rootKey else { return body }
        return .object([rootKey: body])
    }

    private static func setting(_ value: JSONValue, at path: ArraySlice<String>, in json: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var members = json.objectValue ?? [:]
        members[key] = setting(value, at: path.dropFirst(), in: members[key] ?? .object([:]))
        return .object(members)
    }
}
