package import Foundation

/// One request the stub server received during a try of a scenario, with its answer: a line of the
/// scenario's request log (the HTML report, JUnit's `system-out`). Bounded: a try logs at most
/// ``perScenario`` requests; each body is kept up to ``bodyBytes`` for a try that failed and
/// ``passedBodyBytes`` for one that passed (its whole length said), and only when a report shows bodies
/// (the HTML report): else they are `nil`, and only their lengths are said.
///
/// ```swift
/// LoggedRequest(method: "POST", target: "/reviews?draft=1", status: 422, route: "Fixtures/server.yml:12")
/// ```
package struct LoggedRequest: Sendable, Hashable, Codable {
    /// How many requests one try of a scenario logs at most (the first ones; the rest are counted).
    package static let perScenario = 200
    /// How much of each body is kept for a try that failed, in UTF-8 bytes.
    package static let bodyBytes = 16 * 1024
    /// How much of each body is kept for a try that passed: enough for a typical JSON answer, while a run
    /// of thousands of passing scenarios does not carry every large body into its report.
    package static let passedBodyBytes = 2 * 1024

    /// The upper-cased method.
    package var method: String
    /// The path and query as sent.
    package var target: String
    /// The status answered; `nil` when there was none (a fault broke the connection).
    package var status: Int?
    /// Where the route that answered is written (`Fixtures/server.yml:12`); `nil` when none did (a fixture
    /// file, a forwarded request or a 404 naming the nearest routes in its body).
    package var route: String?
    /// When it arrived.
    package var received: Date
    /// The start of the request's body as text (`nil`: not kept for this try), and the body's whole length
    /// in bytes.
    package var requestBody: String?
    package var requestBodyLength: Int
    /// The start of the answer's body as text (`nil`: not kept for this try), and its whole length in bytes.
    package var responseBody: String?
    package var responseBodyLength: Int

    package init(
        method: String,
        target: String,
        status: Int?,
        route: String?,
        received: Date = Date(timeIntervalSince1970: 0),
        requestBody: String? = nil,
        requestBodyLength: Int = 0,
        responseBody: String? = nil,
        responseBodyLength: Int = 0
    ) {
        self.method = method
        self.target = target
        self.status = status
        self.route = route
        self.received = received
        self.requestBody = requestBody
        self.requestBodyLength = requestBodyLength
        self.responseBody = responseBody
        self.responseBodyLength = responseBodyLength
    }

    /// The first `limit` bytes of `data` as text (invalid UTF-8 replaced, a character cut in two dropped).
    package static func text(_ data: Data, upTo limit: Int) -> String {
        guard data.count > limit else { return String(decoding: data, as: UTF8.self) }
        var end = limit
        // Back to the start of a UTF-8 sequence, so the cut leaves no broken character.
        while end > 0, data[data.startIndex + end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: data.prefix(end), as: UTF8.self)
    }

    /// `POST /reviews?draft=1 → 422 (Fixtures/server.yml:12)`: the request log's line, written escaped at the end
    /// of `xml` piece by piece (no text of the whole line made first: JUnit writes one for every request).
    func appendLine(to xml: inout XMLBytes) {
        xml.append(escaping: method)
        xml.append(" ")
        xml.append(escaping: target)
        xml.append(" → ")
        if let status { xml.append(status) } else { xml.append("no answer") }
        if let route {
            xml.append(" (")
            xml.append(escaping: route)
            xml.append(")")
        } else {
            xml.append(" (no route)")
        }
    }
}
