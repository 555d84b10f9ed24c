/// The state a scenario left behind (with `KIF_SKIP_TEAR_DOWN`), as plain text for the inspector.
///
/// scenario-run builds it from the shared object manager and entity store when a scenario finishes;
/// the TUI never imports those modules.
package struct InspectorSnapshot: Sendable, Hashable {
    /// One route of the route set.
    package struct RouteLine: Sendable, Hashable {
        package var text: String
        /// Whether a step re-pointed it (`stub route`).
        package var stubbed: Bool

        package init(text: String, stubbed: Bool) {
            self.text = text
            self.stubbed = stubbed
        }
    }

    /// One entity of the store: its object count and its rows as text.
    package struct Entity: Sendable, Hashable {
        package var name: String
        package var count: Int
        package var rows: [String]

        package init(name: String, count: Int, rows: [String]) {
            self.name = name
            self.count = count
            self.rows = rows
        }
    }

    package var routes: [RouteLine]
    package var queueSuspended: Bool
    /// Names of the requests still queued or in flight.
    package var pendingRequests: [String]
    package var reachability: String
    /// One line per cached response, e.g. `GET /restaurants (200)`.
    package var cachedResponses: [String]
    package var entities: [Entity]

    package init(
        routes: [RouteLine] = [],
        queueSuspended: Bool = false,
        pendingRequests: [String] = [],
        reachability: String = "unknown",
        cachedResponses: [String] = [],
        entities: [Entity] = []
    ) {
        self.routes = routes
        self.queueSuspended = queueSuspended
        self.pendingRequests = pendingRequests
        self.reachability = reachability
        self.cachedResponses = cachedResponses
        self.entities = entities
    }
}
