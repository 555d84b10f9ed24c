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
    ///
    /// Each route is looked up in an index of the earlier ones (by path segment, a placeholder under its
    /// own branch; then by method and state; then by the set of conditions), so a table of `n` routes
    /// takes about `n` lookups rather than `n²` comparisons.
    package static func find(in routes: [ServerRoute]) -> [RouteShadowing] {
        var index = Index()
        var found: [RouteShadowing] = []
        for (position, route) in routes.enumerated() {
            let key = Key(route)
            if let location = route.location, let earlier = index.first(covering: key) {
                found.append(
                    RouteShadowing(
                        location: location,
                        route: route.summary,
                        shadowedBy: "\(routes[earlier].summary) at \(routes[earlier].place)"
                    )
                )
            }
            index.insert(key, at: position)
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
        let wide = Key.segments(general)
        let narrow = Key.segments(pattern)
        guard wide.count == narrow.count else { return false }
        return zip(wide, narrow).allSatisfy { wide, narrow in
            switch (wide, narrow) {
            case (.placeholder, _): true
            case (.text(let wide), .text(let narrow)), (.text(let wide), .placeholder(let narrow)): wide == narrow
            }
        }
    }

    // MARK: The index

    /// A route as the index sees it.
    private struct Key {
        enum Segment: Hashable {
            /// A whole-segment placeholder (`:id`), with its text.
            case placeholder(String)
            case text(String)

            var text: String {
                switch self {
                case .placeholder(let text), .text(let text): text
                }
            }
        }

        /// What each condition asks, one by one: a route's conditions are a subset of another's when each
        /// of its atoms is one of the other's (``RequestConditions/isSubset(of:)``).
        enum Atom: Hashable {
            case query(String, RequestValueMatch.Kind)
            case header(String, RequestValueMatch.Kind)
            case json(JSONValue)
            case jsonIncludes(JSONValue)
            case bodyContains(String)
        }

        var segments: [Segment]
        var method: String?
        var state: String?
        var atoms: Set<Atom>

        init(_ route: ServerRoute) {
            segments = Self.segments(route.path)
            method = route.method
            state = route.state
            let conditions = route.conditions
            var atoms = Set(conditions.query.map { Atom.query($0.name, $0.match.kind) })
            atoms.formUnion(conditions.headers.map { Atom.header($0.name.lowercased(), $0.match.kind) })
            if let json = conditions.json { atoms.insert(.json(json)) }
            if let json = conditions.jsonIncludes { atoms.insert(.jsonIncludes(json)) }
            if let text = conditions.bodyContains { atoms.insert(.bodyContains(text)) }
            self.atoms = atoms
        }

        static func segments(_ pattern: PathPattern) -> [Segment] {
            let names = Set(pattern.parameterNames)
            return pattern.rawValue.split(separator: "/").map { segment in
                segment.hasPrefix(":") && names.contains(String(segment.dropFirst()))
                    ? .placeholder(String(segment)) : .text(String(segment))
            }
        }
    }

    /// The earlier routes of a table: a tree by path segment, each route at the node its last segment
    /// leads to, grouped there by method and state, and by the set of its conditions.
    private struct Index {
        struct Node {
            var texts: [String: Int] = [:]
            var placeholder: Int?
            var groups: [Group: Routes] = [:]
        }

        struct Group: Hashable {
            var method: String?
            var state: String?
        }

        /// The routes of a group: the first one without conditions, and the first with each set.
        struct Routes {
            var unconditioned: Int?
            var byConditions: [Set<Key.Atom>: Int] = [:]
        }

        /// How many conditions a route may have for every subset of them to be looked up; a route with
        /// more is compared with the group's conditioned routes one by one.
        static let subsetLimit = 8

        var nodes = [Node()]

        mutating func insert(_ key: Key, at position: Int) {
            var node = 0
            for segment in key.segments {
                let next: Int? =
                    switch segment {
                    case .placeholder: nodes[node].placeholder
                    case .text(let text): nodes[node].texts[text]
                    }
                if let next {
                    node = next
                    continue
                }
                nodes.append(Node())
                switch segment {
                case .placeholder: nodes[node].placeholder = nodes.count - 1
                case .text(let text): nodes[node].texts[text] = nodes.count - 1
                }
                node = nodes.count - 1
            }
            let group = Group(method: key.method, state: key.state)
            if key.atoms.isEmpty {
                if nodes[node].groups[group]?.unconditioned == nil {
                    nodes[node].groups[group, default: Routes()].unconditioned = position
                }
            } else if nodes[node].groups[group]?.byConditions[key.atoms] == nil {
                nodes[node].groups[group, default: Routes()].byConditions[key.atoms] = position
            }
        }

        /// The position of the first route inserted that answers every request `key`'s route would.
        func first(covering key: Key) -> Int? {
            var best: Int?
            func consider(_ position: Int?) {
                if let position, position < best ?? .max { best = position }
            }
            // Every node whose path covers the route's: the same text, or a placeholder, at each segment.
            var reached = [0]
            for segment in key.segments {
                var next: [Int] = []
                for node in reached {
                    if let placeholder = nodes[node].placeholder { next.append(placeholder) }
                    if let text = nodes[node].texts[segment.text] { next.append(text) }
                }
                reached = next
                if reached.isEmpty { return nil }
            }
            let methods = key.method == nil ? [nil] : [nil, key.method]
            let states = key.state == nil ? [nil] : [nil, key.state]
            let atoms = Array(key.atoms)
            for node in reached {
                for method in methods {
                    for state in states {
                        guard let routes = nodes[node].groups[Group(method: method, state: state)] else { continue }
                        consider(routes.unconditioned)
                        if routes.byConditions.isEmpty || atoms.isEmpty { continue }
                        if atoms.count <= Self.subsetLimit {
                            for mask in 1..<(1 << atoms.count) {
                                let subset = Set(atoms.indices.filter { mask & (1 << $0) != 0 }.map { atoms[$0] })
                                consider(routes.byConditions[subset])
                            }
                        } else {
                            for (conditions, position) in routes.byConditions where conditions.isSubset(of: key.atoms) {
                                consider(position)
                            }
                        }
                    }
                }
            }
            return best
        }
    }
}
