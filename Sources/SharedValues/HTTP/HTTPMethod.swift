/// An HTTP request method, as routes and response descriptors name it.
public enum HTTPMethod: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"
    case options = "OPTIONS"

    /// Parses a method name case-insensitively (`"post"` → `.post`).
    public init?(name: String) {
        self.init(rawValue: name.uppercased())
    }

    public var description: String { rawValue }
}
