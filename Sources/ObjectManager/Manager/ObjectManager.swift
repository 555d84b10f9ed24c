public import Foundation
import Synchronization

/// The shared client of one REST API (RKObjectManager): base URL, router, HTTP client with
/// reachability, request queue, response cache, mappings and the entity store they map into.
///
/// ```swift
/// let manager = ObjectManager(baseURL: URL(string: "http://127.0.0.1:8080")!, store: store)
/// try manager.router.addRoute(Route(name: "restaurants", method: .get, pathPattern: "/restaurants"))
/// manager.addResponseDescriptor(ResponseDescriptor(mapping: restaurantMapping, pathPattern: "/restaurants"))
/// ObjectManager.shared = manager
/// let result = try await manager.getObjects(forRouteNamed: "restaurants")
/// print(result.objects.count)   // 20, mapped and saved in the store
/// ```
public final class ObjectManager: Sendable {
    /// The URL that paths and routes are relative to.
    public let baseURL: URL
    /// The HTTP client that sends the requests: default headers, timeout, transport and reachability.
    public let client: HTTPClient
    /// The router that turns route names and objects into URLs.
    public let router: Router
    /// The queue that limits how many requests run at once.
    public let queue: RequestQueue
    /// The response cache GET requests are served from according to their ``CachePolicy``.
    public let cache: ResponseCache
    private let state: Mutex<State>
    private let requestObservers = Observers<RequestRecord>()

    struct State {
        var store: EntityStore?
        var responseDescriptors: [ResponseDescriptor] = []
        var requestDescriptors: [RequestDescriptor] = []
        var errorMapping = ErrorMapping(keyPaths: ["errors.message", "error.message", "errors", "error", "message"])
        var history: [RequestRecord] = []
        /// How many requests were sent, and the finished one sent last.
        var sent: UInt64 = 0
        var lastSent: RequestRecord?
    }

    private static let sharedInstance = Mutex<ObjectManager?>(nil)

    /// The shared instance (`[RKObjectManager sharedManager]`); settable, and resettable to `nil`.
    public static var shared: ObjectManager? {
        get { sharedInstance.withLock { $0 } }
        set { sharedInstance.withLock { $0 = newValue } }
    }

    /// Makes a manager for the API at `baseURL`.
    ///
    /// ```swift
    /// let manager = ObjectManager(baseURL: URL(string: "http://127.0.0.1:8080")!, store: store)
    /// manager.client.setDefaultHeader("Authorization", to: "Bearer \(token)")
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The API's base URL: every route's path is relative to it.
    ///   - client: The HTTP client; `nil` makes one for `baseURL`.
    ///   - store: The entity store responses are mapped into; settable later through ``ObjectManager/store``.
    ///   - routes: The routes the router starts with.
    ///   - maxConcurrentRequests: How many requests the queue runs at once.
    public init(
        baseURL: URL,
        client: HTTPClient? = nil,
        store: EntityStore? = nil,
        routes: RouteSet = RouteSet(),
        maxConcurrentRequests: Int = 5
    ) {
        self.baseURL = baseURL
        self.client = client ?? HTTPClient(baseURL: baseURL)
        self.router = Router(baseURL: baseURL, routes: routes)
        self.queue = RequestQueue(maxConcurrentRequests: maxConcurrentRequests)
        self.cache = ResponseCache()
        self.state = Mutex(State(store: store))
    }

    // MARK: Configuration

    /// The entity store responses are mapped into (`managedObjectStore`).
    public var store: EntityStore? {
        get { state.withLock { $0.store } }
        set { state.withLock { $0.store = newValue } }
    }

    /// Adds a mapping for the responses a descriptor matches (by method, path and status).
    public func addResponseDescriptor(_ descriptor: ResponseDescriptor) {
        state.withLock { $0.responseDescriptors.append(descriptor) }
    }

    /// Adds how an entity's objects become the body of a POST, PUT or PATCH; the first descriptor that
    /// matches the entity and method is used.
    public func addRequestDescriptor(_ descriptor: RequestDescriptor) {
        state.withLock { $0.requestDescriptors.append(descriptor) }
    }

    /// Where error responses (4xx, 5xx) carry their message.
    public var errorMapping: ErrorMapping {
        get { state.withLock { $0.errorMapping } }
        set { state.withLock { $0.errorMapping = newValue } }
    }

    /// The response descriptors added so far, in order.
    public var responseDescriptors: [ResponseDescriptor] { state.withLock { $0.responseDescriptors } }

    // MARK: History

    /// Every request this manager finished (succeeded, failed or was cancelled), oldest first.
    public var history: [RequestRecord] { state.withLock { $0.history } }

    /// The last finished request.
    public var lastRecord: RequestRecord? { state.withLock { $0.history.last } }

    /// The request sent last, once it has finished; `nil` while it is still running (or before any).
    /// `expect response` judges this one: a slow request sent first and finishing last is not "the last
    /// response".
    public var lastSentRecord: RequestRecord? {
        state.withLock { state in state.lastSent.flatMap { $0.sendOrder == state.sent ? $0 : nil } }
    }

    /// Calls `body` (on any thread) each time a request finishes; keep the token.
    public func observeRequests(_ body: @escaping @Sendable (RequestRecord) -> Void) -> Observation {
        requestObservers.add(body)
    }

    // MARK: Requests

    /// GETs a path relative to the base URL and maps the response; `parameters` become its query.
    @discardableResult
    public func getObjects(
        atPath path: String,
        parameters: [String: String] = [:],
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) async throws(ObjectManagerError) -> ObjectResult {
        try await perform(request(atPath: path, parameters: parameters, cachePolicy: cachePolicy))
    }

    /// GETs the path of a named route: `parameters` (then `object`'s attributes) fill its
    /// placeholders, the parameters left over become the query (RestKit: a GET's parameters are its query).
    @discardableResult
    public func getObjects(
        forRouteNamed name: String,
        object: ManagedObject? = nil,
        parameters: [String: String] = [:],
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) async throws(ObjectManagerError) -> ObjectResult {
        try await perform(
            try request(forRouteNamed: name, object: object, parameters: parameters, cachePolicy: cachePolicy)
        )
    }

    /// GETs a relationship of an object through its relationship route and connects the results (their
    /// foreign key points at the object; for a many-to-many relationship they replace the object's links).
    @discardableResult
    public func getObjects(
        forRelationship name: String,
        of object: ManagedObject,
        parameters: [String: String] = [:],
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) async throws(ObjectManagerError) -> ObjectResult {
        try await perform(
            try request(forRelationship: name, of: object, parameters: parameters, cachePolicy: cachePolicy)
        )
    }

    /// GETs an object through its class route and maps the response back onto it.
    @discardableResult
    public func getObject(_ object: ManagedObject, parameters: [String: String] = [:]) async throws(ObjectManagerError)
        -> ObjectResult
    {
        try await send(object, method: .get, parameters: parameters)
    }

    /// POSTs an object through its class route; the response is mapped back onto the object,
    /// which is then saved in the store. On an error response nothing is stored.
    @discardableResult
    public func postObject(_ object: ManagedObject, parameters: [String: String] = [:]) async throws(ObjectManagerError)
        -> ObjectResult
    {
        try await send(object, method: .post, parameters: parameters)
    }

    /// PUTs an object through its class route; the response is mapped back onto the object and saved.
    @discardableResult
    public func putObject(_ object: ManagedObject, parameters: [String: String] = [:]) async throws(ObjectManagerError)
        -> ObjectResult
    {
        try await send(object, method: .put, parameters: parameters)
    }

    /// DELETEs an object through its class route; on success the object is deleted from the store.
    @discardableResult
    public func deleteObject(_ object: ManagedObject, parameters: [String: String] = [:])
        async throws(ObjectManagerError) -> ObjectResult
    {
        try await send(object, method: .delete, parameters: parameters)
    }

    /// Sends an object through its class route for `method`.
    @discardableResult
    public func send(
        _ object: ManagedObject,
        method: HTTPMethod,
        parameters: [String: String] = [:]
    ) async throws(ObjectManagerError) -> ObjectResult {
        try await perform(try request(sending: object, method: method, parameters: parameters))
    }

    // MARK: Building requests

    /// The request for a path relative to the base URL; `parameters` become its query.
    public func request(
        atPath path: String,
        parameters: [String: String] = [:],
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) -> ObjectRequest {
        ObjectRequest(method: .get, url: router.url(forPath: path, query: parameters), cachePolicy: cachePolicy)
    }

    /// The GET of a named route, built now: throws ``ObjectManagerError/routing(_:)`` for an unknown route
    /// or a placeholder with no value (`No value for ':query' in /messages/search?q=:query.`).
    public func request(
        forRouteNamed name: String,
        object: ManagedObject? = nil,
        parameters: [String: String] = [:],
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) throws(ObjectManagerError) -> ObjectRequest {
        ObjectRequest(
            method: .get,
            url: try url(for: .named(name), object: object, parameters: parameters),
            object: nil,
            cachePolicy: cachePolicy
        )
    }

    /// The GET of an object's relationship through its relationship route, built now.
    public func request(
        forRelationship name: String,
        of object: ManagedObject,
        parameters: [String: String] = [:],
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) throws(ObjectManagerError) -> ObjectRequest {
        let key = Route.Key.relationship(name: name, entity: object.entity.name, method: .get)
        var request = ObjectRequest(
            method: .get,
            url: try url(for: key, object: object, parameters: parameters),
            cachePolicy: cachePolicy
        )
        request.relationship = (name, object)
        return request
    }

    /// An object sent through its class route for `method`, built now: the path from `parameters` and
    /// the object's attributes (an object without the value a placeholder needs — a new object with no
    /// ID on `/messages/:messageID` — throws), the body from its request descriptor for POST, PUT, PATCH.
    public func request(
        sending object: ManagedObject,
        method: HTTPMethod,
        parameters: [String: String] = [:]
    ) throws(ObjectManagerError) -> ObjectRequest {
        let url = try url(
            for: .class(entity: object.entity.name, method: method),
            object: object,
            parameters: parameters
        )
        var body: Data?
        if method == .post || method == .put || method == .patch {
            let descriptor = state.withLock { state in
                state.requestDescriptors.first {
                    $0.entity == object.entity.name && ($0.method == nil || $0.method == method)
                }
            }
            body = (descriptor?.mapping.body(for: object) ?? object.json).encoded(sortedKeys: true)
        }
        return ObjectRequest(
            method: method,
            url: url,
            body: body,
            object: object,
            cachePolicy: .reloadIgnoringCacheData
        )
    }

    /// Sends a request built by one of the `request(…)` methods through the pipeline: reachability and
    /// cache policy, the queue, HTTP, error mapping, object mapping into the store, history. A DELETE of
    /// an object deletes it from the store; a relationship's results are connected to their parent.
    @discardableResult
    public func perform(_ request: ObjectRequest) async throws(ObjectManagerError) -> ObjectResult {
        try await perform(request, sendOrder: reserveSendOrder())
    }

    /// The next place among this manager's requests (``RequestRecord/sendOrder``), taken now: a request
    /// started in a task by a step keeps the place of its step, whenever its task first runs.
    package func reserveSendOrder() -> UInt64 {
        state.withLock { state in
            state.sent += 1
            return state.sent
        }
    }

    /// ``perform(_:)`` with a place taken earlier by ``reserveSendOrder()``.
    package func perform(_ request: ObjectRequest, sendOrder: UInt64) async throws(ObjectManagerError)
        -> ObjectResult
    {
        let result = try await send(
            request.method,
            url: request.url,
            body: request.body,
            object: request.object,
            cachePolicy: request.cachePolicy,
            order: sendOrder
        )
        if request.method == .delete, let object = request.object,
            let context = object.context ?? store?.mainContext
        {
            context.delete(object)
            try saveStore()
        }
        if let (name, object) = request.relationship, let relationship = object.entity.relationship(named: name) {
            if relationship.isManyToMany {
                // The response is the relationship's whole set: it replaces the object's links.
                let children = result.objects.filter { $0.entity.name == relationship.destination }
                try? (object.context ?? store?.mainContext)?.setLinks(from: object, through: name, to: children)
                try saveStore()
            } else if relationship.isToMany, let identification = object.identification {
                // The children were fetched through the parent: point their foreign key at it.
                for child in result.objects where child.entity.name == relationship.destination {
                    try? child.setValue(identification, forAttribute: relationship.foreignKey)
                }
                try saveStore()
            }
        }
        return result
    }

    /// The pipeline every request goes through: reachability and cache policy, the queue, HTTP,
    /// error mapping, object mapping into the store, history.
    @discardableResult
    public func send(
        _ method: HTTPMethod,
        url: URL,
        body: Data? = nil,
        object: ManagedObject? = nil,
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) async throws(ObjectManagerError) -> ObjectResult {
        try await send(
            method,
            url: url,
            body: body,
            object: object,
            cachePolicy: cachePolicy,
            order: reserveSendOrder()
        )
    }

    private func send(
        _ method: HTTPMethod,
        url: URL,
        body: Data?,
        object: ManagedObject?,
        cachePolicy: CachePolicy,
        order: UInt64
    ) async throws(ObjectManagerError) -> ObjectResult {
        let started = ContinuousClock.now
        do {
            let response = try await load(method, url: url, body: body, cachePolicy: cachePolicy)
            let (objects, mapping) = try map(response, method: method, object: object)
            finish(
                RequestRecord(
                    method: method,
                    url: url,
                    response: response,
                    mappedObjectCount: objects.count,
                    mapping: mapping,
                    errorDescription: nil,
                    duration: .now - started,
                    sendOrder: order
                )
            )
            return ObjectResult(response: response, objects: objects)
        } catch {
            finish(
                RequestRecord(
                    method: method,
                    url: url,
                    response: error.response,
                    mappedObjectCount: 0,
                    errorDescription: error.description,
                    duration: .now - started,
                    sendOrder: order
                )
            )
            throw error
        }
    }

    // MARK: Pipeline

    private func load(
        _ method: HTTPMethod,
        url: URL,
        body: Data?,
        cachePolicy: CachePolicy
    ) async throws(ObjectManagerError) -> HTTPResponse {
        let reachable = client.reachabilityStatus != .notReachable
        if method == .get {
            let cached = cache.cachedResponse(for: .get, url: url)
            if !reachable {
                // RestKit's offline pattern: serve GETs from the cache while not reachable.
                guard let cached else { throw .offline(method: method, url: url, cacheChecked: true) }
                return cached.response
            }
            switch cachePolicy {
            case .returnCacheDataDontLoad:
                guard let cached else { throw .notCached(method: method, url: url) }
                return cached.response
            case .returnCacheDataElseLoad:
                if let cached { return cached.response }
            case .useProtocolCachePolicy:
                if let cached, cached.isFresh(at: Date()) { return cached.response }
            case .reloadIgnoringCacheData:
                break
            }
        } else if !reachable {
            throw .offline(method: method, url: url, cacheChecked: false)
        }
        let request = client.request(method, url: url, body: body)
        let client = self.client
        let response: HTTPResponse
        do {
            response = try await queue.perform(
                "\(method) \(url.requestPath)",
                cancellationError: { ObjectManagerError.cancelled(url: url) }
            ) {
                try await client.send(request)
            }
        } catch let error as ObjectManagerError {
            throw error
        } catch is CancellationError {
            throw .cancelled(url: url)
        } catch {
            throw .connectionFailed(url: url, reason: "\(error)")
        }
        cache.storeIfCacheable(response, method: method)
        return response
    }

    /// Maps a response into the store: the objects, and what the request log says of them when there
    /// are none to map (no descriptor matches the path, an empty body).
    private func map(_ response: HTTPResponse, method: HTTPMethod, object: ManagedObject?) throws(ObjectManagerError)
        -> (objects: [ManagedObject], note: String?)
    {
        let json: JSONValue? =
            response.body.isEmpty ? nil : (try? JSONValue(parsingBody: response.body))
        guard response.isSuccess else {
            let message = json.flatMap { errorMapping.message(in: $0) }
            throw .server(status: response.status, message: message, response: response)
        }
        let path = response.url.requestPath
        let descriptors = state.withLock { $0.responseDescriptors }.filter {
            $0.matches(method: method, path: path, status: response.status)
        }
        guard !descriptors.isEmpty else {
            return ([], "no response descriptor matches \(method) \(path); nothing mapped")
        }
        guard let json else {
            return ([], response.body.isEmpty ? "empty body; nothing mapped" : "body is not JSON; nothing mapped")
        }
        guard let store else {
            throw .misconfigured("The object manager has no entity store to map responses into.")
        }
        var objects: [ManagedObject] = []
        var emptyKeyPaths: [String] = []
        do {
            for descriptor in descriptors {
                let root = descriptor.keyPath.map { json[keyPath: $0] } ?? json
                guard let root, root != .null else {
                    emptyKeyPaths.append(descriptor.keyPath ?? "the body")
                    continue
                }
                let target = object.flatMap { $0.entity.name == descriptor.mapping.entity ? $0 : nil }
                objects += try ObjectMapper().map(root, with: descriptor.mapping, in: store.mainContext, onto: target)
            }
            try store.mainContext.save()
        } catch {
            store.mainContext.rollback()
            throw .mapping(reason: "\(error)", response: response)
        }
        if objects.isEmpty {
            let missing = emptyKeyPaths.isEmpty ? "" : ": no '\(emptyKeyPaths.joined(separator: "', '"))' in the body"
            return ([], "nothing mapped\(missing)")
        }
        return (objects, nil)
    }

    /// The absolute URL of a route: placeholders from `parameters`, then from `object`'s attributes; the
    /// parameters no placeholder takes become the query.
    private func url(for key: Route.Key, object: ManagedObject?, parameters: [String: String])
        throws(ObjectManagerError) -> URL
    {
        do {
            let route = try router.route(for: key)
            let path = try router.path(for: route, parameters: parameters) {
                object?.value(forKeyPath: $0)?.stringValue
            }
            let placeholders = Set(route.pathPattern.parameterNames)
            return router.url(forPath: path, query: parameters.filter { !placeholders.contains($0.key) })
        } catch {
            throw .routing(error)
        }
    }

    private func saveStore() throws(ObjectManagerError) {
        do {
            try store?.mainContext.save()
        } catch {
            throw .mapping(reason: "\(error)", response: nil)
        }
    }

    private func finish(_ record: RequestRecord) {
        state.withLock { state in
            state.history.append(record)
            if state.history.count > 1000 { state.history.removeFirst(state.history.count - 1000) }
            if record.sendOrder > state.lastSent?.sendOrder ?? 0 { state.lastSent = record }
        }
        requestObservers.notify(record)
    }

    /// Cancels every request, clears the cache and stops reachability monitoring: what tear-down does
    /// before dropping the shared instance.
    public func shutDown() async {
        queue.cancelAll()
        await queue.drained()
        cache.removeAll()
        client.stopMonitoringReachability()
    }
}
