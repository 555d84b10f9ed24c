/// Sends one request and returns the complete response: the seam between the object manager
/// and the network. `NIOHTTPTransport` is the live one (`AsyncHTTPTransport` for https); `InMemoryTransport` answers in-process.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the complete response; throws when no response arrives.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Releases connections; the transport is unusable afterwards.
    func shutdown() async
}

extension HTTPTransport {
    public func shutdown() async {}
}

/// A transport that answers from a closure, for unit tests that need no sockets.
public struct InMemoryTransport: HTTPTransport {
    private let handler: @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// Makes a transport that answers each request by calling `handler`.
    ///
    /// ```swift
    /// let transport = InMemoryTransport { request in
    ///     HTTPResponse(status: 200, body: Data(#"{"id": 1}"#.utf8), url: request.url)
    /// }
    /// let client = HTTPClient(baseURL: URL(string: "http://localhost")!, transport: transport)
    /// ```
    public init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.handler = handler
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await handler(request)
    }
}
