package import Diagnostics
import SharedValues

/// A route of `server.yml` that can never answer, because an earlier route answers every request it would
/// (first match wins): `check` prints it as a warning.
///
/// ```
/// Fixtures/server.yml:12:5: warning: Route GET /restaurants/featured is never reached: GET /restaurants/:id at Fixtures/server.yml:10 answers every request it would.
/// ```
package struct RouteShadowing: Sendable, Equatable, CustomStringConvertible {
    /// Where the unreachable route is written.
    package var location: SourceLocation
    /// `GET /restaurants/featured`.
    package var route: String
    /// The earlier route: `GET /restaurants/:id at Fixtures/server.yml:10`.
    package var shadowedBy: String

    package var description: String {
        "\(location): warning: Route \(route) is never reached: \(shadowedBy) answers every request it would."
    }

    /// Every route of `routes` (in the order they are tried) that an earlier one always answers first.
    package static func find(in routes: [ServerRoute]) -> [RouteShadowing] {
        var found: [RouteShadowing] = []
        for (index, route) in routes.enumerated() {
            guard let location = route.location,
                let earlier = routes[..<index].first(where: { answersEverything(of: route, before: $0) })
            else { continue }
            found.append(
                RouteShadowing(
                    location: location,
                    route: route.summary,
                    shadowedBy: "\(earlier.summary) at \(earlier.place)"
                )
            )
        }
        return found
    }

    /// Whether `earlier` answers every request `route` would: any method or the same, a path at least as
    /// general, no state or the same, and conditions that `route` has too (conservative: only identical
    /// conditions count, so a warning is never wrong).
    static func answersEverything(of route: ServerRoute, before earlier: ServerRoute) -> Bool {
        (earlier.method == nil || earlier.method == route.method)
            && covers(earlier.path, route.path)
            && (earlier.state == nil || earlier.state == route.state)
            && earlier.conditions.isSubset(of: route.conditions)
    }

    /// Whether every path `pattern` matches, `general` matches too: segment by segment, a whole-segment
    /// placeholder covers anything, other segments only the same text.
    static func covers(_ general: PathPattern, _ pattern: PathPattern) -> Bool {
        let wide = general.rawValue.split(separator: "/")
        let narrow = pattern.rawValue.split(separator: "/")
        guard wide.count == narrow.count else { return false }
        return zip(wide, narrow).allSatisfy { wide, narrow in
            wide == narrow || (wide.hasPrefix(":") && general.parameterNames.contains(String(wide.dropFirst())))
        }
    }
}
