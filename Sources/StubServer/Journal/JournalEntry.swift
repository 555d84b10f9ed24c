public import ObjectManager
public import Foundation

/// A request the stub server received, recorded before any delay or fault.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// The upper-cased method, e.g. `POST`.
    public var method: String
    /// The raw path as sent, without the query.
    public var path: String
    /// The raw query without `?`, or `nil` when the target had none.
    public var query: String?
    /// Every header in the order received.
    public var headers: [HTTPHeader]
    /// The full request body.
    public var body: Data

    public init(method: String, path: String, query: String? = nil, headers: [HTTPHeader] = [], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    public func bodyText() -> String {
        String(decoding: body, as: UTF8.self)
    }

    /// The first value of the header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers[field: name]
    }
}
