package import ObjectManager
package import Scenarios
import StubServer

/// What `check for leaks` looks at after a scenario's tear-down: the shared state the next scenario's
/// set-up would find, compared with what set-up makes — no rows and no unsaved objects in any store that
/// is still reachable (the default store, the shared manager's, the one the next set-up reuses); and when
/// a shared object manager is still set, its routes as the app configured them, its queue resumed with
/// nothing queued or running, reachability not stubbed, an empty cache; no request of the scenario's own
/// manager still running (dropped or not); no background work of steps still running; no scenario stub
/// still installed on the stub server (and, with `unmatched requests: fail`, no request it had no route
/// for); then the app's own ``LeakCheck``s.
///
/// A dropped manager's routes, cache and reachability are not leaks: the next set-up makes a new one.
///
/// ```swift
/// let leaks = SharedStateLeaks(configuredRoutes: try factory.configuredRoutes(), appChecks: app.leakChecks)
/// try await leaks.leaks(in: context)   // ["3 Review rows", "route Review POST still points to /422"]
/// ```
package struct SharedStateLeaks: Sendable {
    /// The object manager the scenario's set-up made, kept on the context past tear-down.
    package enum ManagerKey: ContextKey { package typealias Value = ObjectManager }

    package let configuredRoutes: RouteSet
    package let appChecks: [LeakCheck]
    /// Whether a request the stub server had no route for is a leak (`unmatched requests: fail`).
    package let failsOnUnmatchedRequests: Bool

    /// The API's document the scenario's requests are held to: here, those no step's check has seen.
    package let contract: RequestContractCheck?

    package init(
        configuredRoutes: RouteSet,
        appChecks: [LeakCheck] = [],
        failsOnUnmatchedRequests: Bool = false,
        contract: RequestContractCheck? = nil
    ) {
        self.contract = contract
        self.configuredRoutes = configuredRoutes
        self.appChecks = appChecks
        self.failsOnUnmatchedRequests = failsOnUnmatchedRequests
    }

    /// Every leak, in a fixed order: stores, the shared manager, the scenario's requests, background
    /// work, then the app's checks.
    package func leaks(in context: ScenarioContext) async throws -> [String] {
        let environment = try context.testEnvironment
        let shared = ObjectManager.shared
        var leaks: [String] = []
        var seen: [ObjectIdentifier] = []
        for store in [EntityStore.defaultStore, shared?.store, environment.factory.lastStore].compactMap({ $0 })
        where !seen.contains(ObjectIdentifier(store)) {
            seen.append(ObjectIdentifier(store))
            leaks += try Self.leaks(in: store)
        }
        if let shared {
            leaks += Self.routeLeaks(shared.router.routes, configured: configuredRoutes)
            leaks += Self.leaks(in: shared)
        }
        if let own = context[ManagerKey.self], own !== shared {
            leaks += Self.requestLeaks(own.queue)
        }
        let running = context[ScenarioWorld.Key.self]?.runningCount ?? 0
        if running > 0 { leaks.append(Self.counted(running, "background task") + " of steps still running") }
        // Busy after tear-down, its work would land in the next scenario (a debounced request counted by
        // that scenario's `expect request`).
        for resource in environment.idlingResources where !resource.isIdle {
            leaks.append("idling resource '\(resource.name)' still busy")
        }
        leaks += Self.stubServerLeaks(environment.server.session, unmatched: failsOnUnmatchedRequests)
        if let contract {
            let broken = contract.uncheckedProblems(in: context)
            switch contract.mode {
            case .fail: leaks += broken
            case .warn: for violation in broken { context.log("warning: \(violation)") }
            case .off: break
            }
        }
        for check in appChecks {
            do {
                leaks += try await check.check(environment)
            } catch {
                leaks.append("leak check '\(check.name)' failed: \(error)")
            }
        }
        return leaks
    }

    /// Saved rows by entity and join table (`3 Review rows`, `2 Book_authors rows`), then unsaved objects
    /// and link changes of the main context.
    static func leaks(in store: EntityStore) throws(StoreError) -> [String] {
        var leaks = try store.savedRowCounts().map { counted($0.count, "\($0.entity) row") }
        let unsaved = store.mainContext.unsavedChanges
        leaks += unsaved.inserted.map { "\(counted($0.count, "unsaved \($0.entity) object"))" }
        if unsaved.updatedOrDeleted > 0 {
            leaks.append("unsaved changes to \(counted(unsaved.updatedOrDeleted, "saved object"))")
        }
        if unsaved.links > 0 { leaks.append(counted(unsaved.links, "unsaved link change")) }
        return leaks
    }

    /// A shared manager still set: its queue, reachability and cache (routes apart).
    static func leaks(in manager: ObjectManager) -> [String] {
        var leaks: [String] = []
        if manager.queue.isSuspended { leaks.append("queue still suspended") }
        leaks += requestLeaks(manager.queue)
        if manager.client.isReachabilityStubbed {
            leaks.append("reachability still stubbed as \(manager.client.reachabilityStatus)")
        }
        let cached = manager.cache.count
        if cached > 0 { leaks.append(counted(cached, "cached response")) }
        return leaks
    }

    static func requestLeaks(_ queue: RequestQueue) -> [String] {
        var leaks: [String] = []
        let pending = queue.pendingCount
        if pending > 0 { leaks.append(counted(pending, "request") + " still queued") }
        let running = queue.inFlightCount
        if running > 0 { leaks.append(counted(running, "request") + " still running") }
        return leaks
    }

    /// Scenario stubs still installed (`1 scenario stub still installed: GET /x at Scenarios/a.yml:9`) and,
    /// when `unmatched`, the requests no route answered with their nearest routes.
    static func stubServerLeaks(_ session: StubSession, unmatched: Bool) -> [String] {
        var leaks: [String] = []
        let stubs = session.stubs
        if !stubs.isEmpty {
            leaks.append(
                counted(stubs.count, "scenario stub") + " still installed: "
                    + stubs.map { "\($0.summary) at \($0.place)" }.joined(separator: ", ")
            )
        }
        let (kept, count) = session.unmatched
        if unmatched, count > 0 {
            leaks.append(
                counted(count, "unmatched request") + ": " + kept.prefix(3).map(\.logLine).joined(separator: "; ")
                    + (count > 3 ? "; …" : "")
            )
        }
        return leaks
    }

    /// Routes that differ from the app's configuration: re-pointed, removed or added.
    static func routeLeaks(_ routes: RouteSet, configured: RouteSet) -> [String] {
        var leaks: [String] = []
        for route in configured.routes {
            guard let current = routes.route(for: route.key) else {
                leaks.append("route \(name(route.key)) removed")
                continue
            }
            if current.pathPattern != route.pathPattern || current.method != route.method {
                leaks.append(
                    "route \(name(route.key)) still points to \(current.method == route.method ? "" : "\(current.method) ")\(current.pathPattern)"
                )
            }
        }
        for route in routes.routes where configured.route(for: route.key) == nil {
            leaks.append("route \(name(route.key)) added (\(route.method) \(route.pathPattern))")
        }
        return leaks
    }

    /// A route as `stub route` names it: `Review POST`, `reviews of Restaurant GET`, `'restaurants'`.
    static func name(_ key: Route.Key) -> String {
        switch key {
        case .class(let entity, let method): "\(entity) \(method)"
        case .relationship(let name, let entity, let method): "\(name) of \(entity) \(method)"
        case .named(let name): "'\(name)'"
        }
    }

    /// `1 Review row`, `3 Review rows`.
    static func counted(_ count: Int, _ singular: String) -> String {
        "\(count) \(singular)\(count == 1 ? "" : "s")"
    }
}
