public import Foundation
import Synchronization

/// A response stored in the cache.
public struct CachedResponse: Sendable, Hashable {
    /// The method of the request the response answered.
    public var method: HTTPMethod
    /// The URL of the request the response answered.
    public var url: URL
    /// The HTTP status of the response.
    public var status: Int
    /// The response's headers.
    public var headers: [HTTPHeader]
    /// The response's body.
    public var body: Data
    /// When the response was stored: the start of its `max-age`.
    public var storedAt: Date

    /// Makes a cached response; `storedAt` defaults to now.
    public init(method: HTTPMethod, url: URL, status: Int, headers: [HTTPHeader], body: Data, storedAt: Date = Date()) {
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.storedAt = storedAt
    }

    /// The response as the object manager hands it on, marked as coming from the cache.
    public var response: HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: body, url: url, isFromCache: true)
    }

    /// Whether `Cache-Control: max-age` says it may still be served without loading.
    public func isFresh(at now: Date) -> Bool {
        guard let control = headers[field: "Cache-Control"]?.lowercased() else { return false }
        if control.contains("no-cache") { return false }
        for directive in control.split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "max-age", let seconds = Double(parts[1]) {
                return now.timeIntervalSince(storedAt) < seconds
            }
        }
        return false
    }
}

/// Responses by method and URL (RestKit relied on NSURLCache; on Linux URLSession never writes the
/// cache nor honours policies, so the store and the policy are ours).
///
/// ```swift
/// cache.store(CachedResponse(method: .get, url: url, status: 200, headers: [], body: data))
/// cache.cachedResponse(for: .get, url: url)?.body
/// ```
public final class ResponseCache: Sendable {
    private struct Key: Hashable {
        var method: HTTPMethod
        var url: String
    }

    /// Responses by key, and the keys oldest first, under one lock so they always agree.
    private let storage = Mutex<(responses: [Key: CachedResponse], order: [Key])>(([:], []))

    /// Makes an empty cache.
    public init() {}

    /// Stores a response under its method and URL, replacing (and making newest) one stored there before.
    public func store(_ response: CachedResponse) {
        let key = Key(method: response.method, url: Self.normalize(response.url))
        storage.withLock { storage in
            if storage.responses.updateValue(response, forKey: key) != nil {
                storage.order.removeAll { $0 == key }
            }
            storage.order.append(key)
        }
    }

    /// Stores a network response when it may be cached: GET, 2xx, not `no-store`.
    public func storeIfCacheable(_ response: HTTPResponse, method: HTTPMethod) {
        guard method == .get, response.isSuccess, !response.isFromCache,
            response.headers[field: "Cache-Control"]?.lowercased().contains("no-store") != true
        else { return }
        store(
            CachedResponse(
                method: method,
                url: response.url,
                status: response.status,
                headers: response.headers,
                body: response.body
            )
        )
    }

    /// The response stored for a method and URL, or `nil`; the URL's host case and fragment do not matter.
    public func cachedResponse(for method: HTTPMethod, url: URL) -> CachedResponse? {
        let key = Key(method: method, url: Self.normalize(url))
        return storage.withLock { $0.responses[key] }
    }

    /// Removes the response stored for a method and URL, if there is one.
    public func removeResponse(for method: HTTPMethod, url: URL) {
        let key = Key(method: method, url: Self.normalize(url))
        storage.withLock { storage in
            if storage.responses.removeValue(forKey: key) != nil {
                storage.order.removeAll { $0 == key }
            }
        }
    }

    /// Removes every stored response.
    public func removeAll() {
        storage.withLock { $0 = ([:], []) }
    }

    /// Every cached response, oldest first.
    public var responses: [CachedResponse] {
        storage.withLock { storage in storage.order.compactMap { storage.responses[$0] } }
    }

    /// The number of stored responses.
    public var count: Int { storage.withLock { $0.responses.count } }

    /// Scheme, lower-cased host, port, path and query: `http://127.0.0.1:8080/restaurants?page=1`.
    static func normalize(_ url: URL) -> String {
        let string = url.absoluteString
        return isNormalized(string) ? string : normalizedThroughComponents(url)
    }

    /// `normalize` the long way, through `URLComponents`: the reference the quick check must agree with.
    static func normalizedThroughComponents(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.host = components.host?.lowercased()
        components.fragment = nil
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? url.absoluteString
    }

    /// Whether `normalize` would leave `string` as it is: no fragment, nothing upper-case before the
    /// path, and a path — the common case, checked without parsing the URL into components.
    static func isNormalized(_ string: String) -> Bool {
        let bytes = Array(string.utf8)
        guard !bytes.contains(UInt8(ascii: "#")), let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes.count > colon + 2, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return false }
        let authority = bytes[(colon + 3)...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        let pathStart = colon + 3 + authority.count
        guard pathStart < bytes.count, bytes[pathStart] == UInt8(ascii: "/") else { return false }
        return !bytes[..<pathStart].contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}
