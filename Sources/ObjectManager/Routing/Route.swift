/// One entry of a route set: where an object of a class, a relationship of an object,
/// or a named resource lives on the server.
public struct Route: Sendable, Hashable, CustomStringConvertible {
    /// What a route is looked up by.
    public enum Key: Sendable, Hashable, CustomStringConvertible {
        /// `Review POST` — the class route of an entity for a method.
        case `class`(entity: String, method: HTTPMethod)
        /// `reviews of Restaurant GET` — a relationship route.
        case relationship(name: String, entity: String, method: HTTPMethod)
        /// `restaurants` — a named route (any one method).
        case named(String)

        public var description: String {
            switch self {
            case .class(let entity, let method): "class route \(entity) \(method)"
            case .relationship(let name, let entity, let method): "relationship route '\(name)' of \(entity) \(method)"
            case .named(let name): "named route '\(name)'"
            }
        }
    }

    /// What the route is looked up by: its class, relationship or name.
    public var key: Key
    /// The HTTP method of the requests the route makes.
    public var method: HTTPMethod
    /// The path the route points at, relative to the base URL; `:name` placeholders are filled in per request.
    public var pathPattern: PathPattern

    /// A class route: `Route(entity: "Review", method: .post, pathPattern: "/restaurants/:restaurantID/reviews")`.
    public init(entity: String, method: HTTPMethod, pathPattern: PathPattern) {
        self.key = .class(entity: entity, method: method)
        self.method = method
        self.pathPattern = pathPattern
    }

    /// A relationship route: `Route(relationship: "reviews", ofEntity: "Restaurant", method: .get, pathPattern: …)`.
    public init(relationship: String, ofEntity entity: String, method: HTTPMethod, pathPattern: PathPattern) {
        self.key = .relationship(name: relationship, entity: entity, method: method)
        self.method = method
        self.pathPattern = pathPattern
    }

    /// A named route: `Route(name: "restaurants", method: .get, pathPattern: "/restaurants")`.
    public init(name: String, method: HTTPMethod, pathPattern: PathPattern) {
        self.key = .named(name)
        self.method = method
        self.pathPattern = pathPattern
    }

    public var description: String { "\(key) → \(method) \(pathPattern)" }
}
