import Foundation
import ObjectManager
import RunPipeline
import Scenarios
import TUIRunner

/// Runs the selected scenarios in the live terminal runner (`scenario-run` on a terminal, without `--ci`).
enum TUIRun {
    /// Takes over the terminal until the user quits; the first run and every re-run go through
    /// `execute` (worker processes, or this process under KIF_SKIP_TEAR_DOWN). Returns the session's
    /// merged events for the plain and JUnit reporters. `scenarios` gives the selection as it is now
    /// (`--watch` reloads it); `watch` follows the files.
    static func run(
        _ scenarios: @escaping @Sendable () -> [Scenario],
        execute: @escaping @Sendable ([Scenario], @escaping @Sendable (RunEvent) -> Void) async -> RunSummary,
        watch: ((@escaping @Sendable (WatchUpdate) -> Void) -> @Sendable () -> Void)?,
        cancel: @escaping @Sendable () -> Void,
        exitWhenFinished: Bool,
        skipTearDown: Bool,
        statusNote: String?,
        environment: [String: String]
    ) async -> TUIOutcome {
        var configuration = TUIConfiguration(
            exitWhenFinished: exitWhenFinished,
            colours: environment["NO_COLOR"] == nil && environment["TERM"] != "dumb",
            statusNote: statusNote
        )
        if skipTearDown {
            configuration.inspector = { @Sendable in inspectorSnapshot() }
        }
        // SIGINT, SIGTERM and SIGHUP are handled from when the live runner owns the terminal until it
        // gives it back: the first cancels the run and quits, a second restores the terminal and exits.
        var interrupts: InterruptHandler?
        defer { interrupts?.cancel() }
        return await TerminalRunner.run(
            configuration: configuration,
            run: { ids, onEvent in
                var selected = scenarios()
                if let ids {
                    let wanted = Set(ids)
                    selected = selected.filter { wanted.contains($0.id) }
                }
                return await execute(selected, onEvent)
            },
            cancel: cancel,
            controls: { controls in
                interrupts = InterruptHandler(onFirst: { controls.interrupt() }) {
                    controls.restoreTerminal()
                    Terminal.printError("Interrupted twice: quitting without a summary.")
                }
            },
            watch: watch
        )
    }

    /// The state the shared object manager and the default entity store hold now, as plain text.
    static func inspectorSnapshot(rowsPerEntity: Int = 50) -> InspectorSnapshot? {
        let manager = ObjectManager.shared
        let store = EntityStore.defaultStore ?? manager?.store
        guard manager != nil || store != nil else { return nil }
        var snapshot = InspectorSnapshot()
        if let manager {
            let routeSet = manager.router.routes
            let stubbed = routeSet.stubbedRoutes
            snapshot.routes = routeSet.routes.map { route in
                var text = "\(route.key) → \(route.method) \(route.pathPattern)"
                if let original = stubbed[route.key] { text += " (was \(original))" }
                return InspectorSnapshot.RouteLine(text: text, stubbed: stubbed[route.key] != nil)
            }
            snapshot.queueSuspended = manager.queue.isSuspended
            snapshot.pendingRequests = manager.queue.pendingNames
            let inFlight = manager.queue.inFlightCount
            if inFlight > 0 { snapshot.pendingRequests.append("\(inFlight) in flight") }
            snapshot.reachability = manager.client.reachabilityStatus.description
            snapshot.cachedResponses = manager.cache.responses.map { response in
                var path = response.url.path
                if let query = response.url.query { path += "?" + query }
                return "\(response.method) \(path) (\(response.status), \(response.body.count) bytes)"
            }
        }
        if let store {
            let context = store.mainContext
            snapshot.entities = store.model.entityNames.map { name in
                let objects = (try? context.fetch(name)) ?? []
                let count = (try? context.count(name)) ?? objects.count
                return InspectorSnapshot.Entity(
                    name: name,
                    count: count,
                    rows: objects.prefix(rowsPerEntity).map { $0.json.text }
                )
            }
        }
        return snapshot
    }
}
