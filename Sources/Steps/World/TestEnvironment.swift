public import Foundation
public import ObjectManager
public import Scenarios
public import StubServer
import Synchronization

/// What every scenario of a run shares: the app's test factory (model, configuration, factories),
/// the stub server, the fixture folder and the notification center. The runner puts it on each
/// scenario's context; the default set-up step builds the scenario's world from it, and an app's
/// ``LeakCheck`` gets it after tear-down.
///
/// ```swift
/// LeakCheck("fixture copies") { environment in
///     let copy = try environment.fixtures.url(named: "copied.json")
///     return FileManager.default.fileExists(atPath: copy.path) ? ["copied.json left in the fixtures"] : []
/// }
/// ```
public final class TestEnvironment: Sendable {
    package enum Key: ContextKey { package typealias Value = TestEnvironment }

    /// The app's test factory: model, configuration, factories and hooks.
    public let factory: TestFactory
    /// The stub server that answers the app's requests.
    public let server: StubServer
    /// The fixture folder.
    public let fixtures: TestFixture
    /// The notification center the scenarios' worlds observe for the app's notifications.
    public let notificationCenter: NotificationCenter
    /// The work the app starts on its own, which expectations wait for (``AppUnderTest/idlingResources``).
    public let idlingResources: [any IdlingResource]
    /// Whether the scenario's log names requests no stub route answered (`unmatched requests:` not `off`).
    package let logsUnmatchedRequests: Bool
    /// One observer of every notification for the whole run, handing each name to the open scenarios'
    /// worlds: adding and removing a NotificationCenter observer per scenario cost more than the rest
    /// of a world's set-up.
    private let notifications = Mutex(NotificationRelay())

    package init(
        factory: TestFactory,
        server: StubServer,
        fixtures: URL,
        notificationCenter: NotificationCenter = .default,
        idlingResources: [any IdlingResource] = [],
        logsUnmatchedRequests: Bool = true
    ) {
        self.idlingResources = idlingResources
        self.logsUnmatchedRequests = logsUnmatchedRequests
        self.factory = factory
        self.server = server
        self.fixtures = TestFixture(directory: fixtures)
        self.notificationCenter = notificationCenter
    }

    deinit {
        notifications.withLock { $0.observation }?.remove()
    }

    /// Hands the name of every notification posted from now on to `listener`, until `stopListening(_:)`.
    func listen(_ id: ObjectIdentifier, _ listener: @escaping @Sendable (Notification.Name) -> Void) {
        let needsObserver = notifications.withLock { relay in
            relay.listeners[id] = listener
            return relay.observation == nil
        }
        guard needsObserver else { return }
        let center = notificationCenter
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { [weak self] note in
            guard let listeners = self?.notifications.withLock({ Array($0.listeners.values) }) else { return }
            for listener in listeners { listener(note.name) }
        }
        let observation = NotificationObservation(token: token as AnyObject, center: center)
        let installed = notifications.withLock { relay in
            if relay.observation != nil { return false }
            relay.observation = observation
            return true
        }
        if !installed { observation.remove() }  // another scenario's world installed it meanwhile
    }

    /// Stops handing notifications to the listener of `id`.
    func stopListening(_ id: ObjectIdentifier) {
        notifications.withLock { $0.listeners[id] = nil }
    }

    /// The names scenario files may refer to, for load-time checks: entities and their attributes,
    /// routes, factories and the entities they build.
    package static func vocabulary(factory: TestFactory, routes: RouteSet) -> Vocabulary {
        let model = factory.model
        let factoryNames = factory.factoryNames
        var classRoutes: Set<String> = []
        var relationshipRoutes: Set<String> = []
        var namedRoutes: Set<String> = []
        var namedRoutePatterns: [String: String] = [:]
        for route in routes.routes {
            switch route.key {
            case .class(let entity, let method): classRoutes.insert("\(entity) \(method)")
            case .relationship(let name, let entity, let method):
                relationshipRoutes.insert("\(name) of \(entity) \(method)")
            case .named(let name):
                namedRoutes.insert(name)
                namedRoutePatterns[name] = route.pathPattern.rawValue
            }
        }
        var factoryEntities: [String: String] = [:]
        for name in factoryNames { factoryEntities[name] = factory.entity(ofFactory: name) }
        return Vocabulary(
            [
                .entity: Set(model.entityNames),
                .classRoute: classRoutes,
                .relationshipRoute: relationshipRoutes,
                .namedRoute: namedRoutes,
                .factory: Set(factoryNames),
            ],
            attributes: Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, Set($0.attributeNames)) }),
            factoryEntities: factoryEntities,
            namedRoutePatterns: namedRoutePatterns,
            relationships: Dictionary(
                uniqueKeysWithValues: model.entities.map { ($0.name, Set($0.relationships.map(\.name))) }
            )
        )
    }
}

extension ScenarioContext {
    /// The run's test environment; throws a clear error when the runner did not provide one.
    public var testEnvironment: TestEnvironment {
        get throws(StepError) {
            guard let environment = self[TestEnvironment.Key.self] else { throw .noEnvironment }
            return environment
        }
    }

    /// The scenario's world, created by `set up the test environment`.
    public var world: ScenarioWorld {
        get throws(StepError) {
            guard let world = self[ScenarioWorld.Key.self] else { throw .notSetUp }
            return world
        }
    }

    /// The shared object manager; throws when set-up has not run.
    public var objectManager: ObjectManager {
        get throws(StepError) {
            guard let manager = ObjectManager.shared else { throw .notSetUp }
            return manager
        }
    }
}

/// The run's one notification observer and the worlds listening through it.
private struct NotificationRelay {
    var observation: NotificationObservation?
    var listeners: [ObjectIdentifier: @Sendable (Notification.Name) -> Void] = [:]
}
