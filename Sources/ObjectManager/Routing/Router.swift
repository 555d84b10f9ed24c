public import Foundation
import Synchronization

/// Builds request URLs from a base URL and a route set (RKRouter).
///
/// ```swift
/// let router = Router(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// try router.addRoute(Route(name: "restaurants", method: .get, pathPattern: "/restaurants"))
/// let url = try router.url(forRouteNamed: "restaurants") // http://127.0.0.1:8080/restaurants
/// ```
public final class Router: Sendable {
    /// The URL the routes' paths are relative to.
    public let baseURL: URL
    private let routeSet: Mutex<RouteSet>
    /// The base URL's text without a trailing `/`, which every request's URL starts with (read once: the
    /// URL's `absoluteString` is computed at each call).
    private let baseText: String

    /// Makes a router for `baseURL` that starts with `routes`.
    public init(baseURL: URL, routes: RouteSet = RouteSet()) {
        self.baseURL = baseURL
        self.routeSet = Mutex(routes)
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        self.baseText = base
    }

    /// A snapshot of the current route set.
    public var routes: RouteSet { routeSet.withLock { $0 } }

    /// Adds a route; throws ``RoutingError/duplicateRoute(_:)`` when the router has a route with the same key.
    public func addRoute(_ route: Route) throws(RoutingError) {
        try routeSet.withLock { (set: inout RouteSet) throws(RoutingError) in try set.add(route) }
    }

    /// Adds every route of `routes`, in order (an app's routes at set-up); throws
    /// ``RoutingError/duplicateRoute(_:)`` at the first whose key the router has, keeping those before it.
    public func addRoutes(_ routes: RouteSet) throws(RoutingError) {
        try routeSet.withLock { (set: inout RouteSet) throws(RoutingError) in try set.add(contentsOf: routes) }
    }

    /// Re-points a route (the `stub route` step); throws when the route set has no such route.
    @discardableResult
    public func replacePathPattern(of key: Route.Key, with pattern: PathPattern) throws(RoutingError) -> Route {
        try routeSet.withLock { (set: inout RouteSet) throws(RoutingError) in
            try set.replacePathPattern(of: key, with: pattern)
        }
    }

    /// Resolves a route for a key or throws `.noRoute`.
    public func route(for key: Route.Key) throws(RoutingError) -> Route {
        let set = routes
        guard let route = set.route(for: key) else {
            throw .noRoute(key, suggestions: set.routes.map { $0.key.description })
        }
        return route
    }

    /// The path for a route, placeholders taken first from `parameters`, then from `values`
    /// (an object's attribute key paths).
    public func path(
        for route: Route,
        parameters: [String: String] = [:],
        values: (String) -> String? = { _ in nil }
    ) throws(RoutingError) -> String {
        try route.pathPattern.interpolate { parameters[$0] ?? values($0) }
    }

    /// An absolute URL for a path relative to the base URL (`/reviews?x=1`).
    public func url(forPath path: String, query: [String: String] = [:]) -> URL {
        var relative = path.hasPrefix("/") ? path : "/" + path
        if !query.isEmpty {
            var components = URLComponents()
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            relative += (relative.contains("?") ? "&" : "?") + (components.percentEncodedQuery ?? "")
        }
        // Force-unwrap-free: a base URL plus an encoded path is always a valid URL string.
        return URL(string: baseText + relative) ?? baseURL.appendingPathComponent(path)
    }

    /// The URL of a named route.
    public func url(forRouteNamed name: String, parameters: [String: String] = [:]) throws(RoutingError) -> URL {
        let route = try route(for: .named(name))
        return url(forPath: try path(for: route, parameters: parameters))
    }
}
