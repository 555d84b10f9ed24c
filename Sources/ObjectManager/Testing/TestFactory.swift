import Diagnostics
public import Foundation
import Synchronization

/// Named object factories and the set-up / tear-down of every shared instance (RKTestFactory).
///
/// ```swift
/// let factory = TestFactory(model: model) { manager in try App.configure(manager) }
/// factory.defineFactory("restaurant", entity: "Restaurant", attributes: ["restaurantID": 12345, "name": "Chez Swift"])
/// let manager = try await factory.setUp(baseURL: server.baseURL)   // new manager, new in-memory store
/// let place = try factory.object(fromFactory: "restaurant", properties: ["name": "Bistro"])
/// await factory.tearDown()                                         // shared instances back to nil
/// ```
public final class TestFactory: Sendable {
    /// Builds an object; receives it with the factory's attributes and the caller's properties set.
    public typealias Configure = @Sendable (ManagedObject) throws -> Void
    /// Runs during set-up (after the manager and store exist) or tear-down: the app's own reset.
    public typealias Hook = @Sendable (ObjectManager) async throws -> Void

    struct Factory {
        var entity: String
        var attributes: [String: AttributeValue]
        var configure: Configure?
    }

    struct State {
        var factories: [String: Factory] = [:]
        var sharedObjects: [String: ManagedObject] = [:]
        var setUpHooks: [Hook] = []
        var tearDownHooks: [Hook] = []
        /// Each factory's own count of the objects it built since set-up (`${sequence}`).
        var sequences: [String: Int] = [:]
        /// The in-memory store the last set-up gave the default store, and whether a tear-down emptied it
        /// since (then the next set-up reuses it).
        var store: EntityStore?
        var storeIsEmptied = false
    }

    /// The entity model every store the factory sets up is created from.
    public let model: EntityModel
    private let configureManager: @Sendable (ObjectManager) throws -> Void
    private let makeClient: @Sendable (URL) -> HTTPClient
    private let state = Mutex(State())

    /// - Parameters:
    ///   - model: the entity model every new store is created from.
    ///   - makeClient: the HTTP client for a base URL. By default every manager this factory sets up
    ///     shares one live transport, so connections to the stub server are reused across scenarios, and
    ///     one reachability monitor per host, so a set-up does not probe the network again.
    ///   - configureManager: the app's routes, mappings and descriptors, applied to every new manager.
    public init(
        model: EntityModel,
        makeClient: (@Sendable (URL) -> HTTPClient)? = nil,
        configureManager: @escaping @Sendable (ObjectManager) throws -> Void = { _ in }
    ) {
        self.model = model
        if let makeClient {
            self.makeClient = makeClient
        } else {
            let transport = NIOHTTPTransport()
            let monitors = MonitorsByHost()
            self.makeClient = { url in
                HTTPClient(
                    baseURL: url,
                    transport: transport,
                    reachabilityMonitor: monitors.monitor(for: url.host ?? "localhost")
                )
            }
        }
        self.configureManager = configureManager
    }

    // MARK: Factories

    /// Defines (or redefines) a named factory.
    public func defineFactory(
        _ name: String,
        entity: String,
        attributes: [String: AttributeValue] = [:],
        configure: Configure? = nil
    ) {
        state.withLock { $0.factories[name] = Factory(entity: entity, attributes: attributes, configure: configure) }
    }

    /// The names of the defined factories, sorted.
    public var factoryNames: [String] { state.withLock { $0.factories.keys.sorted() } }

    /// The entity a factory builds.
    public func entity(ofFactory name: String) -> String? { state.withLock { $0.factories[name]?.entity } }

    /// A new object from a factory, inserted (unsaved) into the default store's main context.
    /// `properties` override the factory's attributes. `${sequence}` in a string attribute is replaced by
    /// the factory's own count of the objects it built since set-up, from 1 (FactoryBot's and factory_boy's
    /// per-factory sequences): a `message` factory's third object is "Message 3" whatever other factories built.
    public func object(
        fromFactory name: String,
        properties: [String: AttributeValue] = [:]
    ) throws(TestFactoryError) -> ManagedObject {
        let (factory, sequence) = try state.withLock { (state: inout State) throws(TestFactoryError) in
            guard let factory = state.factories[name] else {
                throw .unknownFactory(name, suggestions: Array(state.factories.keys))
            }
            let sequence = state.sequences[name, default: 0] + 1
            state.sequences[name] = sequence
            return (factory, sequence)
        }
        guard let store = EntityStore.defaultStore else { throw .noStore }
        do {
            var attributes = factory.attributes.mapValues { value -> AttributeValue in
                if case .string(let text) = value, text.contains("${sequence}") {
                    return .string(text.replacingOccurrences(of: "${sequence}", with: String(sequence)))
                }
                return value
            }
            attributes.merge(properties) { _, new in new }
            let object = try store.mainContext.insert(entity: factory.entity, attributes: attributes)
            try factory.configure?(object)
            return object
        } catch let error as TestFactoryError {
            throw error
        } catch {
            throw .buildFailed(name, reason: "\(error)")
        }
    }

    /// One object from each named factory.
    public func objects(fromFactories names: [String]) throws(TestFactoryError) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        for name in names { objects.append(try object(fromFactory: name)) }
        return objects
    }

    /// The same object for a name until the next set-up (RKTestFactory sharedObjectFromFactory:).
    public func sharedObject(fromFactory name: String) throws(TestFactoryError) -> ManagedObject {
        if let existing = state.withLock({ $0.sharedObjects[name] }) { return existing }
        let object = try object(fromFactory: name)
        state.withLock { $0.sharedObjects[name] = object }
        return object
    }

    // MARK: The app's configuration

    /// The routes the app's configuration adds to a new object manager: the one place routes are
    /// declared. A scratch manager (no network, no store) is configured to read them, so load-time
    /// checks and leak checks compare against exactly what set-up will configure.
    public func configuredRoutes() throws -> RouteSet {
        let baseURL = URL(fileURLWithPath: "/")
        let offline = InMemoryTransport { _ in throw CancellationError() }
        let manager = ObjectManager(baseURL: baseURL, client: HTTPClient(baseURL: baseURL, transport: offline))
        try configureManager(manager)
        return manager.router.routes
    }

    // MARK: Set-up and tear-down

    /// The store the last set-up made the default store; tear-down empties it and the next set-up
    /// reuses it, so what it still holds after a tear-down would reach the next scenario.
    package var lastStore: EntityStore? { state.withLock { $0.store } }

    /// Adds a hook that runs at the end of every ``setUp(baseURL:monitorReachability:)``, in the order added:
    /// the app's own set-up (a signed-in user, a seeded cache).
    ///
    /// ```swift
    /// factory.addSetUpHook { manager in manager.client.setDefaultHeader("Authorization", to: "Bearer test") }
    /// ```
    public func addSetUpHook(_ hook: @escaping Hook) {
        state.withLock { $0.setUpHooks.append(hook) }
    }

    /// Adds a hook that runs during every ``tearDown()``, in the order added, after the manager's requests are
    /// cancelled and before the store is emptied: the app's own reset.
    public func addTearDownHook(_ hook: @escaping Hook) {
        state.withLock { $0.tearDownHooks.append(hook) }
    }

    /// Resets every shared instance: a new object manager on `baseURL` with the app's configuration,
    /// an empty in-memory store as the default store, an empty cache, live reachability, the queue
    /// resumed, shared factory objects forgotten, every factory's `${sequence}` back to 1; then the app's
    /// set-up hooks.
    ///
    /// The store is the one the previous ``tearDown()`` emptied when there is one (emptied, it is
    /// indistinguishable from a new one, and costs no new database), else a new one.
    @discardableResult
    public func setUp(baseURL: URL, monitorReachability: Bool = true) async throws -> ObjectManager {
        if let previous = ObjectManager.shared { await previous.shutDown() }
        let emptied = state.withLock { $0.storeIsEmptied ? $0.store : nil }
        let store = try emptied ?? EntityStore(model: model)
        state.withLock { state in
            state.store = store
            state.storeIsEmptied = false
        }
        let manager = ObjectManager(baseURL: baseURL, client: makeClient(baseURL), store: store)
        try configureManager(manager)
        EntityStore.defaultStore = store
        ObjectManager.shared = manager
        let hooks = state.withLock { state in
            state.sharedObjects.removeAll()
            state.sequences.removeAll()
            return state.setUpHooks
        }
        if monitorReachability { await manager.client.startMonitoringReachability() }
        // The app's hooks as an app's code (``AppCode``): every `await` in one goes back through the loop's
        // queue, so a hook that never suspends for real cannot hold the run's timers off it.
        for hook in hooks { try await AppCode.run { try await hook(manager) } }
        return manager
    }

    /// Cancels every queued or running request and clears the cache, runs the app's tear-down hooks
    /// (the store's objects are still there for them), deletes every object of every entity, and drops
    /// the shared instances. The emptied store is kept for the next ``setUp(baseURL:monitorReachability:)``.
    public func tearDown() async throws {
        let hooks = state.withLock { state in
            state.sharedObjects.removeAll()
            return state.tearDownHooks
        }
        if let manager = ObjectManager.shared {
            await manager.shutDown()
            for hook in hooks { try await AppCode.run { try await hook(manager) } }
        }
        if let store = EntityStore.defaultStore {
            try store.removeAll()
            state.withLock { state in
                if state.store === store { state.storeIsEmptied = true }
            }
        }
        ObjectManager.shared = nil
        EntityStore.defaultStore = nil
    }
}

/// One reachability monitor per host, shared by the clients a factory makes.
private final class MonitorsByHost: Sendable {
    private let monitors = Mutex<[String: ReachabilityMonitor]>([:])

    func monitor(for host: String) -> ReachabilityMonitor {
        monitors.withLock { monitors in
            if let existing = monitors[host] { return existing }
            let monitor = ReachabilityMonitor(host: host)
            monitors[host] = monitor
            return monitor
        }
    }
}

/// Why a factory could not build.
public enum TestFactoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No factory has this name; `suggestions` are the defined factories' names.
    case unknownFactory(String, suggestions: [String])
    /// There is no default entity store to insert into: set-up has not run.
    case noStore
    /// Building from the factory failed (an attribute or the `configure` closure threw); `reason` says why.
    case buildFailed(String, reason: String)

    public var description: String {
        switch self {
        case .unknownFactory(let name, let known):
            "Unknown factory '\(name)'." + Suggestions.didYouMean(name, in: known)
        case .noStore:
            "There is no default entity store to create objects in; run set-up first."
        case .buildFailed(let name, let reason):
            "Factory '\(name)' could not build: \(reason)"
        }
    }
}
