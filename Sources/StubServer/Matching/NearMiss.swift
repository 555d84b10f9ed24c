import Diagnostics
import SharedValues

/// A route that did not answer a request, and why: `GET /restaurants/:restaurantID at
/// Fixtures/server.yml:9: path differs`. Near misses are ranked so the route the author most likely meant
/// comes first: one whose path matches before one whose path differs, then by how many conditions failed.
package struct NearMiss: Sendable, Equatable {
    /// `GET /restaurants/:restaurantID`.
    package var route: String
    /// `Fixtures/server.yml:9`, or `nil` for a route built in code.
    package var place: String?
    /// Why it did not answer, in check order: `method differs`, `path differs`, `state is 'started', the
    /// route answers in 'read'`, then each failing condition of `when:`.
    package var reasons: [String]
    /// Lower is nearer.
    var distance: Int

    /// `GET /restaurants/:restaurantID at Fixtures/server.yml:9: path differs`.
    package var description: String {
        route + (place.map { " at \($0)" } ?? "") + ": " + reasons.joined(separator: ", ")
    }

    /// Why `route` did not answer `request`; `segments` are the request's decoded path segments (`nil` when
    /// they do not decode), `state` the scenario's state.
    package init(route: ServerRoute, request: IncomingRequest, segments: [String]?, state: String) {
        var reasons: [String] = []
        var distance = 0
        if !route.accepts(method: request.entry.method) {
            reasons.append("method differs")
            distance += 100
        }
        if let segments, route.path.match(segments: segments) != nil {
            // The path matches: nearer than any route whose path differs.
        } else {
            reasons.append("path differs")
            distance += 1000 + 10 * Self.pathDistance(route.path, segments ?? [])
        }
        if let wanted = route.state, wanted != state {
            reasons.append("state is '\(state)', the route answers in '\(wanted)'")
            distance += 10
        }
        let misses = route.conditions.misses(in: request)
        reasons += misses
        distance += 10 * misses.count
        self.route = route.summary
        self.place = route.location.map { "\($0.file):\($0.line)" }
        self.reasons = reasons
        self.distance = distance
    }

    /// The nearest of `routes` (in the order they are tried) for a request none of them answered: those
    /// within a little of the nearest, at most `limit`.
    package static func nearest(
        among routes: [ServerRoute],
        request: IncomingRequest,
        segments: [String]?,
        state: String,
        limit: Int = 3
    ) -> [NearMiss] {
        let misses = routes.map { NearMiss(route: $0, request: request, segments: segments, state: state) }
        // A stable sort: equally near routes keep the order they are tried in.
        let ranked = misses.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
        guard let best = ranked.first?.element.distance else { return [] }
        return ranked.prefix { $0.element.distance <= best + 20 }.prefix(limit).map(\.element)
    }

    /// How far a path is from a pattern: 4 per missing or extra segment, and the edit distance of each
    /// literal segment that differs (a placeholder matches anything).
    static func pathDistance(_ pattern: PathPattern, _ segments: [String]) -> Int {
        let literal = pattern.rawValue.split(separator: "/").map(String.init)
        var distance = 4 * abs(literal.count - segments.count)
        for (expected, actual) in zip(literal, segments) where !expected.contains(":") && expected != actual {
            distance += Suggestions.editDistance(expected, actual)
        }
        return distance
    }
}
