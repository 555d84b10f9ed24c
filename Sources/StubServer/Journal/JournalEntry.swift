package import Foundation
package import SharedValues

/// A request the stub server received, recorded before any delay or fault.
package struct JournalEntry: Sendable, Codable, Equatable {
    /// The upper-cased method, e.g. `POST`.
    package var method: String
    /// The raw path as sent, without the query.
    package var path: String
    /// The raw query without `?`, or `nil` when the target had none.
    package var query: String?
    /// Every header in the order received.
    package var headers: [HTTPHeader]
    /// The request body, or its first `RequestJournal.Limits.bodyBytes` bytes when it was longer.
    package var body: Data
    /// The body's whole length: received, or declared by `Content-Length` when the body was refused unread.
    package var bodyLength: Int
    /// Where the route that answered was written (`Fixtures/server.yml:12`), or `nil` when none did.
    package var route: String?
    /// Whether the request is held to the API's document: `false` when a `contract: off` route answered it.
    package var heldToContract = true
    /// The step that sent it, when the object manager of a scenario run did (``RequestOrigin``).
    package var origin: RequestOrigin?
    /// When it arrived.
    package var received = Date()
    /// The status the stub server answered, once it answered (`nil` before, for a fault, which answers none,
    /// and always when the journal keeps no answers: `RequestJournal.Limits.answers`).
    package var status: Int?
    /// The answer's body, or its first `RequestJournal.Limits.bodyBytes` bytes when it was longer (empty
    /// when the journal keeps no answers).
    package var responseBody = Data()
    /// The answer's whole length (0 when the journal keeps no answers).
    package var responseBodyLength = 0

    private enum CodingKeys: String, CodingKey { case method, path, query, headers, body, bodyLength }

    package init(method: String, path: String, query: String? = nil, headers: [HTTPHeader] = [], body: Data = Data()) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, bodyLength: body.count)
    }

    /// An entry whose body may be only the start of one `bodyLength` bytes long.
    package init(method: String, path: String, query: String?, headers: [HTTPHeader], body: Data, bodyLength: Int) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength
    }

    /// Whether `body` is only the start of the body received.
    package var isBodyTruncated: Bool { body.count < bodyLength }

    /// The target as sent: the path, and `?` and the query when there was one.
    package var target: String { query.map { path + "?" + $0 } ?? path }

    /// The body as UTF-8 text (invalid bytes replaced).
    package func bodyText() -> String {
        String(decoding: body, as: UTF8.self)
    }

    /// The first value of the header `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        headers[field: name]
    }

    /// About how many bytes the entry holds, for the journal's size limit.
    var journalCost: Int {
        let headerBytes = headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
        return 128 + method.utf8.count + path.utf8.count + (query?.utf8.count ?? 0) + headerBytes + body.count
            + responseBody.count
    }
}
