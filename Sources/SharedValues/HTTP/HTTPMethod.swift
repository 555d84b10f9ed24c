/// An HTTP request method, as routes and response descriptors name it.
public enum HTTPMethod: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// `GET`: reads a resource.
    case get = "GET"
    /// `POST`: creates a resource, or submits data.
    case post = "POST"
    /// `PUT`: replaces a resource.
    case put = "PUT"
    /// `PATCH`: changes part of a resource.
    case patch = "PATCH"
    /// `DELETE`: deletes a resource.
    case delete = "DELETE"
    /// `HEAD`: a GET without the response body.
    case head = "HEAD"
    /// `OPTIONS`: asks which methods a resource allows.
    case options = "OPTIONS"

    /// Parses a method name case-insensitively (`"post"` → `.post`).
    public init?(name: String) {
        self.init(rawValue: name.uppercased())
    }

    public var description: String { rawValue }
}
