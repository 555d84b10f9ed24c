package import Diagnostics
package import Foundation
package import SharedValues

/// One entry of `server.yml`: which requests it answers and how.
///
/// ```swift
/// ServerRoute(path: "/review", method: "POST", status: 201, content: .fixture("review.json"))
/// ```
package struct ServerRoute: Sendable, Equatable {
    /// What a route answers with.
    package enum Content: Sendable, Equatable {
        /// No body.
        case none
        /// The bytes of a file under the fixture folder, read per request.
        case fixture(String)
        /// JSON text, served as `application/json`.
        case json(Data)
        /// A literal body.
        case body(String)
    }

    /// The path pattern, with `:name` parameters.
    package var path: PathPattern
    /// The upper-cased method, or `nil` for any method.
    package var method: String?
    /// The response status.
    package var status: Int
    /// The response body.
    package var content: Content
    /// Extra response headers; these win over the inferred `Content-Type`.
    package var headers: [HTTPHeader]
    /// How long to wait before answering.
    package var delay: Duration?
    /// A connection-level failure instead of an answer.
    package var fault: StubFault?
    /// Where the route was written, when it came from a file.
    package var location: SourceLocation?

    package init(
        path: String,
        method: String? = nil,
        status: Int = 200,
        content: Content = .none,
        headers: [HTTPHeader] = [],
        delay: Duration? = nil,
        fault: StubFault? = nil,
        location: SourceLocation? = nil
    ) {
        self.path = PathPattern(path)
        self.method = method.flatMap { $0 == "*" ? nil : $0.uppercased() }
        self.status = status
        self.content = content
        self.headers = headers
        self.delay = delay
        self.fault = fault
        self.location = location
    }

    /// Whether this route answers `method` (case-insensitive).
    func accepts(method requestMethod: String) -> Bool {
        guard let method else { return true }
        return method == requestMethod.uppercased()
    }
}
