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

    /// How many routes, the nearest by method, path and state, have their `when:` looked at for the
    /// report: the conditions cost the most (a JSON body, regular expressions), and a request no route
    /// answers should not cost more than one that is answered.
    static let conditionsLooked = 16
    /// How many characters of a path segment are compared with a route's (the rest only counted): a
    /// 60 KB path is ranked as fast as a short one.
    static let segmentPrefix = 64

    /// `GET /restaurants/:restaurantID at Fixtures/server.yml:9: path differs`.
    package var description: String {
        route + (place.map { " at \($0)" } ?? "") + ": " + reasons.joined(separator: ", ")
    }

    /// Why `route` did not answer `request`; `segments` are the request's decoded path segments (`nil` when
    /// they do not decode), `state` the scenario's state.
    package init(route: ServerRoute, request: IncomingRequest, segments: [String]?, state: String) {
        self.init(route: route, request: request, near: Near(route, request, segments.map(Segments.init), state))
    }

    private init(route: ServerRoute, request: IncomingRequest, near: Near) {
        let misses = route.conditions.misses(in: request)
        self.route = route.summary
        self.place = route.location.map { "\($0.file):\($0.line)" }
        self.reasons = near.reasons + misses
        self.distance = near.distance + 10 * misses.count
    }

    /// The nearest of `routes` (in the order they are tried) for a request none of them answered: those
    /// within a little of the nearest, at most `limit`. Every route is ranked by method, path and state;
    /// only the ``conditionsLooked`` nearest have their conditions looked at.
    package static func nearest(
        among routes: [ServerRoute],
        request: IncomingRequest,
        segments: [String]?,
        state: String,
        limit: Int = 3
    ) -> [NearMiss] {
        let path = segments.map(Segments.init)
        let near = routes.map { Near($0, request, path, state) }
        // A stable order: equally near routes keep the order they are tried in.
        let looked = near.indices.sorted { (near[$0].distance, $0) < (near[$1].distance, $1) }
            .prefix(conditionsLooked)
        let misses = looked.map { NearMiss(route: routes[$0], request: request, near: near[$0]) }
        let ranked = misses.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
        guard let best = ranked.first?.element.distance else { return [] }
        return ranked.prefix { $0.element.distance <= best + 20 }.prefix(limit).map(\.element)
    }

    /// A request's decoded path segments, with the start of each kept for comparing.
    struct Segments {
        var all: [String]
        /// The first ``NearMiss/segmentPrefix`` characters of each segment, and how many it has.
        var starts: [(prefix: [Unicode.Scalar], count: Int)]

        init(_ segments: [String]) {
            all = segments
            starts = segments.map { segment in
                var prefix: [Unicode.Scalar] = []
                var count = 0
                for scalar in segment.unicodeScalars {
                    if count < NearMiss.segmentPrefix { prefix.append(scalar) }
                    count += 1
                }
                return (prefix, count)
            }
        }
    }

    /// How near a route is without its conditions, and why it missed so far.
    private struct Near {
        var reasons: [String] = []
        var distance = 0

        init(_ route: ServerRoute, _ request: IncomingRequest, _ path: Segments?, _ state: String) {
            if !route.accepts(method: request.entry.method) {
                reasons.append("method differs")
                distance += 100
            }
            if let path, route.path.match(segments: path.all) != nil {
                // The path matches: nearer than any route whose path differs.
            } else {
                reasons.append("path differs")
                distance += 1000 + 10 * NearMiss.pathDistance(route.path, path?.starts ?? [])
            }
            if let wanted = route.state, wanted != state {
                reasons.append("state is '\(state)', the route answers in '\(wanted)'")
                distance += 10
            }
        }
    }

    /// How far a path is from a pattern: 4 per missing or extra segment, and the edit distance of each
    /// literal segment that differs (a placeholder matches anything), comparing the first
    /// ``segmentPrefix`` characters of a segment and counting the rest as added.
    static func pathDistance(_ pattern: PathPattern, _ segments: [(prefix: [Unicode.Scalar], count: Int)]) -> Int {
        let literal = pattern.rawValue.split(separator: "/")
        var distance = 4 * abs(literal.count - segments.count)
        for (expected, actual) in zip(literal, segments) where !expected.contains(":") {
            let wanted = Array(expected.unicodeScalars.prefix(segmentPrefix))
            guard wanted != actual.prefix || actual.count > actual.prefix.count else { continue }
            distance += Suggestions.editDistance(wanted, actual.prefix) + (actual.count - actual.prefix.count)
        }
        return distance
    }
}
