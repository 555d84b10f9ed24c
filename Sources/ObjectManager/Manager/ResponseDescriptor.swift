/// Which responses a mapping applies to (RKResponseDescriptor): method, path pattern, status codes,
/// and the key path of the objects in the body.
///
/// ```swift
/// ResponseDescriptor(mapping: restaurantMapping, method: .get, pathPattern: "/restaurants", keyPath: nil)
/// ```
public struct ResponseDescriptor: Sendable, Hashable {
    /// The mapping applied to the objects of a matching response.
    public var mapping: EntityMapping
    /// `nil` matches any method.
    public var method: HTTPMethod?
    /// `nil` matches any path (how an object's own response is mapped whatever its route points at).
    public var pathPattern: PathPattern?
    /// Where the objects are in the body (`article`); `nil` for the root.
    public var keyPath: String?
    /// The statuses the descriptor matches; 2xx by default.
    public var statusCodes: Range<Int>

    /// Makes a descriptor; left `nil`, `method` and `pathPattern` match any method and path.
    ///
    /// ```swift
    /// manager.addResponseDescriptor(
    ///     ResponseDescriptor(mapping: reviewMapping, method: .post, pathPattern: "/restaurants/:restaurantID/reviews")
    /// )
    /// ```
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

    /// Whether a response to `method` on `path` with `status` is mapped by this descriptor.
    public func matches(method: HTTPMethod, path: String, status: Int) -> Bool {
        (self.method == nil || self.method == method)
            && statusCodes.contains(status)
            && (pathPattern == nil || pathPattern?.match(path) != nil)
    }
}

/// How an object of an entity is sent (RKRequestDescriptor): the inverse mapping and its root key.
public struct RequestDescriptor: Sendable, Hashable {
    /// The name of the entity whose objects this descriptor sends.
    public var entity: String
    /// How an object becomes the request body.
    public var mapping: RequestMapping
    /// `nil` applies to every method.
    public var method: HTTPMethod?

    /// Makes a descriptor for `entity`'s objects; `method` `nil` applies it to every method.
    public init(entity: String, mapping: RequestMapping, method: HTTPMethod? = nil) {
        self.entity = entity
        self.mapping = mapping
        self.method = method
    }
}
