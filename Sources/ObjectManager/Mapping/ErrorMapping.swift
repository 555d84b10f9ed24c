/// Finds the error message in an error response body (RestKit's error mapping).
///
/// ```swift
/// ErrorMapping().message(in: ["errors": ["code": 12345, "message": "Invalid object."]]) // "Invalid object."
/// ```
public struct ErrorMapping: Sendable, Hashable {
    /// Key paths tried in order.
    public var keyPaths: [String]

    /// Makes an error mapping that tries `keyPaths` in order.
    public init(keyPaths: [String] = ["errors.message", "error", "errors"]) {
        self.keyPaths = keyPaths
    }

    /// The first key path's value that is a string, or an array of strings joined with ", ".
    public func message(in json: JSONValue) -> String? {
        for keyPath in keyPaths {
            switch json[keyPath: keyPath] {
            case .string(let message):
                return message
            case .array(let elements):
                let strings = elements.compactMap(\.stringValue)
                if !strings.isEmpty, strings.count == elements.count {
                    return strings.joined(separator: ", ")
                }
            default:
                continue
            }
        }
        return nil
    }
}
