public import Foundation

/// A request as the transport sends it.
public struct HTTPRequest: Sendable, Hashable {
    /// The request's method.
    public var method: HTTPMethod
    /// The request's URL.
    public var url: URL
    /// The request's headers, in order.
    public var headers: [HTTPHeader]
    /// The request body; `nil` for none.
    public var body: Data?
    /// How long the whole request may take.
    public var timeout: Duration

    /// Makes a request; `timeout` is how long the whole request may take.
    public init(
        method: HTTPMethod,
        url: URL,
        headers: [HTTPHeader] = [],
        body: Data? = nil,
        timeout: Duration = .seconds(10)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A complete response.
public struct HTTPResponse: Sendable, Hashable {
    /// The longest body a transport reads (64 MiB); a longer one fails the request as a connection failure
    /// saying so, and its connection is closed.
    package static let maximumBodyBytes = 64 << 20
    /// Why a request whose response was longer than ``maximumBodyBytes`` failed.
    package static let tooLongReason = "The response body is over \(maximumBodyBytes >> 20) MiB, more than is read."

    /// The HTTP status of the response.
    public var status: Int
    /// The response's headers, in order.
    public var headers: [HTTPHeader]
    /// The response body; empty for none.
    public var body: Data
    /// The URL that was requested.
    public var url: URL
    /// Whether this response came from the response cache rather than the network.
    public var isFromCache: Bool

    /// Makes a response to `url`; `isFromCache` marks one served from the response cache.
    public init(status: Int, headers: [HTTPHeader] = [], body: Data = Data(), url: URL, isFromCache: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.isFromCache = isFromCache
    }

    /// 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as UTF-8 text (lossy).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The MIME type of the `Content-Type` header, without parameters.
    public var mimeType: String? {
        headers[field: "Content-Type"]?.split(ascii: UInt8(ascii: ";")).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}
