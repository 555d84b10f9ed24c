package import Foundation
package import SharedValues

/// Requests the stub server hands to another server instead of answering them itself (`record`, `--record`):
/// every request, or only those no route and no fixture file answers.
///
/// ```swift
/// let forwarding = Forwarding(scope: .unmatched) { request in
///     ForwardedAnswer(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data("[]".utf8))
/// }
/// ```
package struct Forwarding: Sendable {
    /// Which requests are forwarded.
    package enum Scope: Sendable {
        /// Every request (`scenario-run record`).
        case everything
        /// Requests no scenario stub, route or fixture file answers (`--record` on a run).
        case unmatched
    }

    package var scope: Scope

    /// Headers about one connection (lower-cased), never passed on in either direction.
    package static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
        "content-length",
    ]
    /// Sends the request on and returns the answer to give (a 502 saying why when there is none).
    package var forward: @Sendable (ForwardedRequest) async -> ForwardedAnswer

    package init(scope: Scope, forward: @escaping @Sendable (ForwardedRequest) async -> ForwardedAnswer) {
        self.scope = scope
        self.forward = forward
    }
}

/// A request the stub server received, as it goes on to another server.
package struct ForwardedRequest: Sendable, Equatable {
    /// The upper-cased method.
    package var method: String
    /// The raw path as sent, without the query.
    package var path: String
    /// The raw query without `?`, or `nil`.
    package var query: String?
    /// Every header in the order received (`Host` included).
    package var headers: [HTTPHeader]
    package var body: Data

    package init(method: String, path: String, query: String?, headers: [HTTPHeader], body: Data) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// `path?query`.
    package var target: String { query.map { "\(path)?\($0)" } ?? path }
}

/// What the stub server answers a forwarded request with.
package struct ForwardedAnswer: Sendable, Equatable {
    package var status: Int
    package var headers: [HTTPHeader]
    package var body: Data

    package init(status: Int, headers: [HTTPHeader], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 502 whose JSON body says why the other server gave no answer.
    package static func badGateway(_ reason: String) -> ForwardedAnswer {
        ForwardedAnswer(
            status: 502,
            headers: [HTTPHeader(name: "Content-Type", value: MIMEType.json)],
            body: JSONValue.object(["error": .string(reason)]).encoded()
        )
    }
}
