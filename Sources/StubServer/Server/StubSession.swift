import Diagnostics
import Foundation
package import SharedValues
import Synchronization

/// What the stub server remembers for the scenario it serves: the scenario's own stubs (tried first,
/// newest first), how often each route has answered (for `responses:` and `{{sequence}}`), the state
/// (`started` at first), and the requests nothing answered. `reset()` — at every scenario's set-up, and
/// on `POST /__scenario-run/reset` — forgets all of it.
///
/// Counting a route's hit and applying its `then state:` happen under one lock, with the stubs and
/// state the route was chosen against checked unchanged, so concurrent requests each get their own place
/// in a sequence and a state change is seen by the next request; the conditions of `when:` are looked at
/// outside it, so a slow one holds up no other request.
package final class StubSession: Sendable {
    /// A route chosen for a request: the route, its answer for this hit, the path's placeholder values,
    /// and the hit's number in the scenario (from 1).
    package struct Choice: Sendable {
        package var route: ServerRoute
        package var answer: StubAnswer
        package var parameters: [String: String]
        package var sequence: Int
    }

    private struct State {
        /// The scenario's own routes, newest first, and how often each has answered.
        var stubs: [ServerRoute] = []
        var stubHits: [Int] = []
        var tableHits: [Int]
        var name = StubSession.initialState
        var unmatched: [UnmatchedRequest] = []
        var unmatchedCount = 0
        /// Counts every change of the stubs or the state: a route chosen outside the lock is taken only
        /// when nothing changed meanwhile.
        var generation = 0
    }

    /// The state every scenario starts in.
    package static let initialState = "started"
    /// How many unmatched requests are kept per scenario (all are counted).
    static let keptUnmatched = 100
    /// How many times a choice made outside the lock is tried again after the stubs or the state changed
    /// meanwhile, before the last try is made under the lock.
    static let optimisticTries = 4
    /// The steps of regular expressions (``LinearRegex``) a request may need before it is matched on the
    /// matching thread rather than where the server reads connections.
    package static let slowMatchingSteps = 100_000

    /// The `server.yml` routes, tried after the scenario's own.
    package let table: ServerRouteTable
    private let state: Mutex<State>
    private let unmatchedObservers = Observers<UnmatchedRequest>()
    /// The table's routes with regular expressions in `when:`, by index: what ``regexSteps(for:)`` weighs.
    private let regexRoutes: [Int]

    package init(table: ServerRouteTable) {
        self.table = table
        self.state = Mutex(State(tableHits: Array(repeating: 0, count: table.routes.count)))
        self.regexRoutes = table.routes.indices.filter { table.routes[$0].conditions.regexSize > 0 }
    }

    /// Forgets the scenario's stubs, hits, state and unmatched requests.
    package func reset() {
        state.withLock { state in
            let generation = state.generation + 1
            state = State(tableHits: Array(repeating: 0, count: table.routes.count))
            state.generation = generation
        }
    }

    /// Adds a route that is tried before every other, for the rest of the scenario.
    package func addStub(_ route: ServerRoute) {
        state.withLock { state in
            state.stubs.insert(route, at: 0)
            state.stubHits.insert(0, at: 0)
            state.generation += 1
        }
    }

    /// Removes the scenario's own stubs; returns how many there were.
    @discardableResult
    package func removeStubs() -> Int {
        state.withLock { state in
            defer {
                state.stubs = []
                state.stubHits = []
                state.generation += 1
            }
            return state.stubs.count
        }
    }

    /// The scenario's own stubs, newest first.
    package var stubs: [ServerRoute] {
        state.withLock { $0.stubs }
    }

    /// The requests nothing answered since the last reset (the first 100), and how many there were.
    package var unmatched: (kept: [UnmatchedRequest], count: Int) {
        state.withLock { ($0.unmatched, $0.unmatchedCount) }
    }

    /// Calls `body` with every unmatched request, on the thread that answered it; keep it short.
    package func onUnmatched(_ body: @escaping @Sendable (UnmatchedRequest) -> Void) -> Observation {
        unmatchedObservers.add(body)
    }

    /// The route that answers `request` — the scenario's stubs newest first, then the table in file order,
    /// the first whose method, path, state and conditions hold — with its hit counted and `then state:`
    /// applied; `nil` when none does.
    ///
    /// The conditions are looked at outside the lock (a `when:` may take a while), against the stubs and
    /// state of that moment; the choice is taken under the lock only if neither changed meanwhile, else
    /// made again (a table route's conditions are not looked at twice).
    package func choose(for request: IncomingRequest, segments: [String]?) -> Choice? {
        guard let segments else { return nil }
        for _ in 1..<Self.optimisticTries {
            let (generation, stubs, name) = state.withLock { ($0.generation, $0.stubs, $0.name) }
            let found = first(for: request, segments, stubs: stubs, name: name)
            let taken = state.withLock { state -> Choice?? in
                guard state.generation == generation else { return nil }
                return .some(found.map { take($0, in: &state) })
            }
            if let taken { return taken }
        }
        return state.withLock { state in
            first(for: request, segments, stubs: state.stubs, name: state.name).map { take($0, in: &state) }
        }
    }

    /// A route found for a request: a stub's index or the table's, and the path's placeholder values.
    private struct Found {
        var stub: Int?
        var table: Int?
        var parameters: [String: String]
    }

    private func first(for request: IncomingRequest, _ segments: [String], stubs: [ServerRoute], name: String)
        -> Found?
    {
        for (index, route) in stubs.enumerated() {
            if let parameters = Self.parameters(route, request, segments, name, tableIndex: nil) {
                return Found(stub: index, parameters: parameters)
            }
        }
        for (index, route) in table.routes.enumerated() {
            if let parameters = Self.parameters(route, request, segments, name, tableIndex: index) {
                return Found(table: index, parameters: parameters)
            }
        }
        return nil
    }

    /// Counts the hit of `found` and applies its `then state:`.
    private func take(_ found: Found, in state: inout State) -> Choice {
        let route: ServerRoute
        let hit: Int
        if let index = found.stub {
            state.stubHits[index] += 1
            (route, hit) = (state.stubs[index], state.stubHits[index])
        } else {
            let index = found.table ?? 0
            state.tableHits[index] += 1
            (route, hit) = (table.routes[index], state.tableHits[index])
        }
        if let next = route.nextState, next != state.name {
            state.name = next
            state.generation += 1
        }
        return Choice(route: route, answer: route.answer(forHit: hit), parameters: found.parameters, sequence: hit)
    }

    /// Records a request nothing answered, with its nearest routes, and tells the observers.
    package func recordUnmatched(_ request: IncomingRequest, segments: [String]?) -> UnmatchedRequest {
        let (stubs, name) = state.withLock { ($0.stubs, $0.name) }
        let unmatched = UnmatchedRequest(
            method: request.entry.method,
            target: request.target,
            nearest: NearMiss.nearest(among: stubs + table.routes, request: request, segments: segments, state: name)
        )
        state.withLock { state in
            state.unmatchedCount += 1
            if state.unmatched.count < Self.keptUnmatched { state.unmatched.append(unmatched) }
        }
        unmatchedObservers.notify(unmatched)
        return unmatched
    }

    /// About how many steps the regular expressions of the routes that accept `request`'s method could
    /// take on it, at most (counting stops past ``slowMatchingSteps``): a cheap look before matching, to
    /// choose where it runs.
    package func regexSteps(for request: IncomingRequest) -> Int {
        let stubs = state.withLock { $0.stubs }
        var steps = 0
        func weigh(_ route: ServerRoute) {
            if route.accepts(method: request.entry.method) { steps += route.conditions.regexSteps(for: request) }
        }
        for route in stubs where route.conditions.regexSize > 0 {
            weigh(route)
            if steps > Self.slowMatchingSteps { return steps }
        }
        for index in regexRoutes {
            weigh(table.routes[index])
            if steps > Self.slowMatchingSteps { return steps }
        }
        return steps
    }

    /// The placeholder values when `route` answers `request` in state `name`, else `nil`; cheap checks
    /// first. A table route's conditions are looked at once per request (`tableIndex`).
    private static func parameters(
        _ route: ServerRoute,
        _ request: IncomingRequest,
        _ segments: [String],
        _ name: String,
        tableIndex: Int?
    ) -> [String: String]? {
        guard route.accepts(method: request.entry.method), route.state == nil || route.state == name,
            let parameters = route.path.match(segments: segments)
        else { return nil }
        guard !route.conditions.isEmpty else { return parameters }
        if let tableIndex, let known = request.tableConditions[tableIndex] { return known ? parameters : nil }
        let holds = route.conditions.holds(for: request)
        if let tableIndex { request.tableConditions[tableIndex] = holds }
        return holds ? parameters : nil
    }
}
