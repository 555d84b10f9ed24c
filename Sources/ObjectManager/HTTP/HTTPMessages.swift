public import Foundation

/// One header field; order and repetition are kept.
public struct HTTPHeader: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether the field's name is `name`, compared as HTTP compares names: ASCII letters in either case.
    public func hasName(_ name: String) -> Bool {
        let lhs = self.name.utf8
        let rhs = name.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(a | 0x20))
        }
    }
}

extension [HTTPHeader] {
    /// The first value of a header, by case-insensitive name.
    public subscript(field name: String) -> String? {
        first { $0.hasName(name) }?.value
    }

    /// Sets a header, replacing any field of the same name.
    public mutating func set(_ name: String, to value: String) {
        removeAll { $0.hasName(name) }
        append(HTTPHeader(name: name, value: value))
    }
}

/// A request as the transport sends it.
public struct HTTPRequest: Sendable, Hashable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: [HTTPHeader]
    public var body: Data?
    /// How long the whole request may take.
    public var timeout: Duration

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
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: Data
    /// The URL that was requested.
    public var url: URL
    /// Whether this response came from the response cache rather than the network.
    public var isFromCache: Bool

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
        headers[field: "Content-Type"]?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}
