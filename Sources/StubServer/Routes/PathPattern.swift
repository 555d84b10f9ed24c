/// A route path such as `/articles/:category/:id`: literal segments and named parameters.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// The pattern as written.
    public let description: String
    let segments: [Segment]

    /// Parses a pattern; a segment starting with `:` binds the request segment at its place.
    public init(_ pattern: String) {
        description = pattern
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part in
            part.hasPrefix(":") && part.count > 1 ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
    }

    /// The bound parameters when the decoded request segments match, otherwise `nil`.
    func match(_ requestSegments: [String]) -> [String: String]? {
        guard requestSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, requestSegments) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }
}
