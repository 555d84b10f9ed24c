/// The routes of an object manager's router (RKRouteSet): class, relationship and named routes.
///
/// ```swift
/// var routes = RouteSet()
/// try routes.add(Route(entity: "Review", method: .post, pathPattern: "/restaurants/:restaurantID/reviews"))
/// try routes.replacePathPattern(of: .class(entity: "Review", method: .post), with: "/422")
/// ```
public struct RouteSet: Sendable, Hashable {
    private var routesByKey: [Route.Key: Route] = [:]
    private var order: [Route.Key] = []
    private var originalPatterns: [Route.Key: PathPattern] = [:]

    /// Makes a route set of `routes`; of routes with the same key the first is kept.
    public init(_ routes: [Route] = []) {
        for route in routes where routesByKey[route.key] == nil {
            routesByKey[route.key] = route
            order.append(route.key)
        }
    }

    /// Every route, in the order added.
    public var routes: [Route] { order.compactMap { routesByKey[$0] } }

    /// Adds a route; a second route with the same key is an error.
    public mutating func add(_ route: Route) throws(RoutingError) {
        // An app adds its routes one by one, at every set-up: room for a usual app's at the first, and each
        // key hashed once.
        if routesByKey.isEmpty {
            routesByKey.reserveCapacity(Self.usualCount)
            order.reserveCapacity(Self.usualCount)
        }
        if let existing = routesByKey.updateValue(route, forKey: route.key) {
            routesByKey[route.key] = existing
            throw .duplicateRoute(route.key)
        }
        order.append(route.key)
    }

    /// Adds every route of `other`, in its order; throws ``RoutingError/duplicateRoute(_:)`` at the first whose
    /// key this set has, keeping the routes added before it (as adding them one by one would).
    ///
    /// Into an empty set — an app's routes at every set-up — nothing can collide: the set takes `other`'s
    /// routes and order as they are, sharing their storage until either set changes.
    public mutating func add(contentsOf other: RouteSet) throws(RoutingError) {
        // Empty, a set has no original patterns either: they are kept only for routes it holds.
        if routesByKey.isEmpty {
            routesByKey = other.routesByKey
            order = other.order
            return
        }
        for route in other.routes { try add(route) }
    }

    /// How many routes the first ``add(_:)`` makes room for.
    private static let usualCount = 16

    /// The route for a key, if any.
    public func route(for key: Route.Key) -> Route? {
        routesByKey[key]
    }

    /// The class route of an entity for a method.
    public func route(forEntity entity: String, method: HTTPMethod) -> Route? {
        routesByKey[.class(entity: entity, method: method)]
    }

    /// A relationship route.
    public func route(forRelationship name: String, ofEntity entity: String, method: HTTPMethod) -> Route? {
        routesByKey[.relationship(name: name, entity: entity, method: method)]
    }

    /// A named route.
    public func route(named name: String) -> Route? {
        routesByKey[.named(name)]
    }

    /// Re-points a route to a new path pattern — the primitive of the `stub route` step.
    /// Returns the route as it was.
    @discardableResult
    public mutating func replacePathPattern(of key: Route.Key, with pattern: PathPattern) throws(RoutingError) -> Route
    {
        guard var route = routesByKey[key] else {
            throw .noRoute(key, suggestions: routes.map { $0.key.description })
        }
        let previous = route
        if originalPatterns[key] == nil { originalPatterns[key] = route.pathPattern }
        route.pathPattern = pattern
        routesByKey[key] = route
        return previous
    }

    /// The keys of routes whose path pattern was replaced, with the pattern they had.
    public var stubbedRoutes: [Route.Key: PathPattern] {
        originalPatterns.filter { routesByKey[$0.key]?.pathPattern != $0.value }
    }
}
