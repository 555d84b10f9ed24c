import Diagnostics
import Foundation
package import SharedValues
import Synchronization

/// What the stub server remembers for the scenario it serves: the scenario's own stubs (tried first,
/// newest first), how often each route has answered (for `responses:` and `{{sequence}}`), the state
/// (`started` at first), and the requests nothing answered. `reset()` — at every scenario's set-up, and
/// on `POST /__scenario-run/reset` — forgets all of it.
///
/// Choosing a route and counting its hit happen under one lock, so concurrent requests each get their
/// own place in a sequence and a state change is seen by the next request.
package final class StubSession: Sendable {
    /// A route a scenario added with `stub request:`, and how often it has answered.
    package struct ScenarioStub: Sendable {
        package var route: ServerRoute
        var hits = 0
    }

    /// A route chosen for a request: the route, its answer for this hit, the path's placeholder values,
    /// and the hit's number in the scenario (from 1).
    package struct Choice: Sendable {
        package var route: ServerRoute
        package var answer: StubAnswer
        package var parameters: [String: String]
        package var sequence: Int
    }

    private struct State {
        var stubs: [ScenarioStub] = []
        var tableHits: [Int]
        var name = StubSession.initialState
        var unmatched: [UnmatchedRequest] = []
        var unmatchedCount = 0
    }

    /// The state every scenario starts in.
    package static let initialState = "started"
    /// How many unmatched requests are kept per scenario (all are counted).
    static let keptUnmatched = 100

    /// The `server.yml` routes, tried after the scenario's own.
    package let table: ServerRouteTable
    private let state: Mutex<State>
    private let unmatchedObservers = Observers<UnmatchedRequest>()

    package init(table: ServerRouteTable) {
        self.table = table
        self.state = Mutex(State(tableHits: Array(repeating: 0, count: table.routes.count)))
    }

    /// Forgets the scenario's stubs, hits, state and unmatched requests.
    package func reset() {
        state.withLock { $0 = State(tableHits: Array(repeating: 0, count: table.routes.count)) }
    }

    /// Adds a route that is tried before every other, for the rest of the scenario.
    package func addStub(_ route: ServerRoute) {
        state.withLock { $0.stubs.insert(ScenarioStub(route: route), at: 0) }
    }

    /// Removes the scenario's own stubs; returns how many there were.
    @discardableResult
    package func removeStubs() -> Int {
        state.withLock { state in
            defer { state.stubs = [] }
            return state.stubs.count
        }
    }

    /// The scenario's own stubs, newest first.
    package var stubs: [ServerRoute] {
        state.withLock { $0.stubs.map(\.route) }
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
    package func choose(for request: IncomingRequest, segments: [String]?) -> Choice? {
        guard let segments else { return nil }
        return state.withLock { state -> Choice? in
            for index in state.stubs.indices {
                guard let parameters = Self.parameters(state.stubs[index].route, request, segments, state.name) else {
                    continue
                }
                state.stubs[index].hits += 1
                return Self.choice(state.stubs[index].route, parameters, hit: state.stubs[index].hits, &state.name)
            }
            for (index, route) in table.routes.enumerated() {
                guard let parameters = Self.parameters(route, request, segments, state.name) else { continue }
                state.tableHits[index] += 1
                return Self.choice(route, parameters, hit: state.tableHits[index], &state.name)
            }
            return nil
        }
    }

    /// Records a request nothing answered, with its nearest routes, and tells the observers.
    package func recordUnmatched(_ request: IncomingRequest, segments: [String]?) -> UnmatchedRequest {
        let (stubs, name) = state.withLock { ($0.stubs.map(\.route), $0.name) }
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

    /// The placeholder values when `route` answers `request` in state `name`, else `nil`; cheap checks first.
    private static func parameters(
        _ route: ServerRoute,
        _ request: IncomingRequest,
        _ segments: [String],
        _ name: String
    ) -> [String: String]? {
        guard route.accepts(method: request.entry.method), route.state == nil || route.state == name,
            let parameters = route.path.match(segments: segments),
            route.conditions.isEmpty || route.conditions.holds(for: request)
        else { return nil }
        return parameters
    }

    private static func choice(_ route: ServerRoute, _ parameters: [String: String], hit: Int, _ name: inout String)
        -> Choice
    {
        if let next = route.nextState { name = next }
        return Choice(route: route, answer: route.answer(forHit: hit), parameters: parameters, sequence: hit)
    }
}
