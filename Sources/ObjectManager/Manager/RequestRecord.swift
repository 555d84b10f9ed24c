import Diagnostics
public import Foundation

/// What became of one request the object manager sent: the history that `expect response` and
/// the runner's log read.
public struct RequestRecord: Sendable, Hashable, CustomStringConvertible {
    /// The request's method.
    public var method: HTTPMethod
    /// The request's URL, query included.
    public var url: URL
    /// The response, when one arrived (from the network or the cache).
    public var response: HTTPResponse?
    /// The number of objects mapped from the response.
    public var mappedObjectCount: Int
    /// Why a successful response mapped nothing (`no response descriptor matches GET /slow; nothing
    /// mapped`), for the request log; `nil` when objects were mapped or the request failed.
    public var mapping: String? = nil
    /// Why it failed, rendered; `nil` on success.
    public var errorDescription: String?
    /// How long the request took, from the call to its end (reachability, cache, queue and mapping included).
    public var duration: Duration
    /// When the request was sent among this manager's requests: 1 for the first. Requests finish in
    /// another order than they were sent (a slow one before a fast one); ``ObjectManager/lastSentRecord``
    /// reads this.
    public var sendOrder: UInt64 = 0

    /// The HTTP status of the response; `nil` when no response arrived.
    public var status: Int? { response?.status }

    /// `POST /review → 201 (1 object)`, `GET /restaurants → cache 200 (20 objects)`, `POST /x → failed: …`,
    /// `GET /slow → 200 (no response descriptor matches GET /slow; nothing mapped)`.
    public var description: String {
        // A line per request goes to the scenario's log: built as bytes, made a string once.
        var line = TextBytes()
        line.append(method.rawValue)
        line.append(" ")
        line.append(url.requestPath)
        if let query = url.query {
            line.append("?")
            line.append(query)
        }
        if let response {
            line.append(response.isFromCache ? " → cache " : " → ")
            line.append(response.status)
        }
        if let errorDescription {
            line.append(response == nil ? " → failed: " : " (")
            line.append(errorDescription)
            if response != nil { line.append(")") }
        } else if mappedObjectCount > 0 {
            line.append(" (")
            line.append(mappedObjectCount)
            line.append(mappedObjectCount == 1 ? " object)" : " objects)")
        } else if let mapping {
            line.append(" (")
            line.append(mapping)
            line.append(")")
        }
        return line.text
    }
}

/// The objects a request mapped and the response they came from (RKMappingResult).
public struct ObjectResult: Sendable {
    /// The response the objects were mapped from.
    public var response: HTTPResponse
    /// The objects mapped from the response into the store; empty when nothing was mapped.
    public var objects: [ManagedObject]

    /// The first mapped object, or `nil` when there is none.
    public var firstObject: ManagedObject? { objects.first }
}

/// A request built and checked, ready to send with ``ObjectManager/perform(_:)``: building it is where
/// an unknown route or a placeholder with no value fails, so a caller can fail at once and send later.
///
/// ```swift
/// let request = try manager.request(forRouteNamed: "search", parameters: ["q": "lunch"])
/// print(request.url)   // http://127.0.0.1:8080/messages/search?q=lunch
/// let result = try await manager.perform(request)
/// ```
public struct ObjectRequest: Sendable {
    /// The request's method.
    public var method: HTTPMethod
    /// The request's URL, with the route's placeholders filled in and its query.
    public var url: URL
    /// The request body: for a POST, PUT or PATCH of an object, its JSON (through its request descriptor's
    /// mapping, when one matches); `nil` for none.
    public var body: Data?
    /// The object the response maps back onto (and, for DELETE, the one deleted from the store).
    public var object: ManagedObject?
    /// How the request uses the response cache.
    public var cachePolicy: CachePolicy
    /// For a relationship's GET: its name and the parent the results are connected to.
    var relationship: (name: String, parent: ManagedObject)?

    /// Makes a request to send with ``ObjectManager/perform(_:)``; most requests come from
    /// ``ObjectManager/request(forRouteNamed:object:parameters:cachePolicy:)`` instead.
    public init(
        method: HTTPMethod,
        url: URL,
        body: Data? = nil,
        object: ManagedObject? = nil,
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) {
        self.method = method
        self.url = url
        self.body = body
        self.object = object
        self.cachePolicy = cachePolicy
    }
}
