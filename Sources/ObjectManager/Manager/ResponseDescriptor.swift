/// Which responses a mapping applies to (RKResponseDescriptor): method, path pattern, status codes,
/// and the key path of the objects in the body.
///
/// ```swift
/// ResponseDescriptor(mapping: restaurantMapping, method: .get, pathPattern: "/restaurants", keyPath: nil)
/// ```
public struct ResponseDescriptor: Sendable, Hashable {
    public var mapping: EntityMapping
    /// `nil` matches any method.
    public var method: HTTPMethod?
    /// `nil` matches any path (how an object's own response is mapped whatever its route points at).
    public var pathPattern: PathPattern?
    /// Where the objects are in the body (`article`); `nil` for the root.
    public var keyPath: String?
    public var statusCodes: Range<Int>

    public init(
        mapping: EntityMapping,
        method: HTTPMethod? = nil,
        pathPattern: PathPattern? = nil,
        keyPath: String? = nil,
        statusCodes: Range<Int> = 200..<300
    ) {
        self.mapping = mapping
        self.method = method
        self.pathPattern = pathPattern
        self.keyPath = keyPath
        self.statusCodes = statusCodes
    }

    public func matches(method: HTTPMethod, path: String, status: Int) -> Bool {
        (self.method == nil || self.method == method)
            && statusCodes.contains(status)
            && (pathPattern == nil || pathPattern?.match(path) != nil)
    }
}

/// How an object of an entity is sent (RKRequestDescriptor): the inverse mapping and its root key.
public struct RequestDescriptor: Sendable, Hashable {
    public var entity: String
    public var mapping: RequestMapping
    /// `nil` applies to every method.
    public var method: HTTPMethod?

    public init(entity: String, mapping: RequestMapping, method: HTTPMethod? = nil) {
        self.entity = entity
        self.mapping = mapping
        self.method = method
    }
}
