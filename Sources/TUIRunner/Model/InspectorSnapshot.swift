/// The state a scenario left behind (with `KIF_SKIP_TEAR_DOWN`), as plain text for the inspector.
///
/// scenario-run builds it from the shared object manager and entity store when a scenario finishes;
/// the TUI never imports those modules.
public struct InspectorSnapshot: Sendable, Hashable {
    /// One route of the route set.
    public struct RouteLine: Sendable, Hashable {
        public var text: String
        /// Whether a step re-pointed it (`stub route`).
        public var stubbed: Bool

        public init(text: String, stubbed: Bool) {
            self.text = text
            self.stubbed = stubbed
        }
    }

    /// One entity of the store: its object count and its rows as text.
    public struct Entity: Sendable, Hashable {
        public var name: String
        public var count: Int
        public var rows: [String]

        public init(name: String, count: Int, rows: [String]) {
            self.name = name
            self.count = count
            self.rows = rows
        }
    }

    public var routes: [RouteLine]
    public var queueSuspended: Bool
    /// Names of the requests still queued or in flight.
    public var pendingRequests: [String]
    public var reachability: String
    /// One line per cached response, e.g. `GET /restaurants (200)`.
    public var cachedResponses: [String]
    public var entities: [Entity]

    public init(
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
