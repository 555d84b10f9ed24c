package import Foundation
package import SharedValues

/// One answer of a route: a status, a body, headers, a delay or a fault. A route has one, or a list
/// under `responses:` given one per request in order.
package struct StubAnswer: Sendable, Equatable {
    /// What an answer's body is.
    package enum Content: Sendable, Equatable {
        /// No body.
        case none
        /// The bytes of a file under the fixture folder, read per request.
        case fixture(String)
        /// JSON text, served as `application/json`.
        case json(Data)
        /// JSON with templates in its string values, rendered per request.
        case jsonTemplate(JSONTemplate)
        /// A literal body.
        case body(String)
        /// A body that is a template, rendered per request.
        case bodyTemplate(ResponseTemplate)
    }

    /// The response status.
    package var status: Int
    /// The response body.
    package var content: Content
    /// Extra response headers; these win over the inferred `Content-Type`.
    package var headers: [HTTPHeader]
    /// Templates among the header values, by index in `headers`.
    package var headerTemplates: [Int: ResponseTemplate]
    /// Whether a `fixture:` file is a template (`template: true`), rendered per request.
    package var fixtureIsTemplate: Bool
    /// How long to wait before answering.
    package var delay: Duration?
    /// A connection-level failure instead of an answer.
    package var fault: StubFault?

    package init(
        status: Int = 200,
        content: Content = .none,
        headers: [HTTPHeader] = [],
        headerTemplates: [Int: ResponseTemplate] = [:],
        fixtureIsTemplate: Bool = false,
        delay: Duration? = nil,
        fault: StubFault? = nil
    ) {
        self.status = status
        self.content = content
        self.headers = headers
        self.headerTemplates = headerTemplates
        self.fixtureIsTemplate = fixtureIsTemplate
        self.delay = delay
        self.fault = fault
    }

    /// The `Content-Type` the answer is served with: its own header, else what its content implies.
    package var contentType: String? {
        if let explicit = headers[field: "Content-Type"] { return explicit }
        switch content {
        case .none: return nil
        case .fixture(let name): return MIMEType.forFile(named: name)
        case .json, .jsonTemplate: return MIMEType.json
        case .body, .bodyTemplate: return MIMEType.text
        }
    }
}
