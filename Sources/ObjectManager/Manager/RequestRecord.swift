public import Foundation

/// What became of one request the object manager sent: the history that `expect response` and
/// the runner's log read.
public struct RequestRecord: Sendable, Hashable, CustomStringConvertible {
    public var method: HTTPMethod
    public var url: URL
    /// The response, when one arrived (from the network or the cache).
    public var response: HTTPResponse?
    /// The number of objects mapped from the response.
    public var mappedObjectCount: Int
    /// Why it failed, rendered; `nil` on success.
    public var errorDescription: String?
    public var duration: Duration

    public var status: Int? { response?.status }

    /// `POST /review → 201 (1 object, 2.1 ms)`, `GET /restaurants → cache 200`, `POST /x → failed: …`.
    public var description: String {
        var text = "\(method) \(url.path)"
        if let response {
            text += " → " + (response.isFromCache ? "cache " : "") + "\(response.status)"
        }
        if let errorDescription {
            text += response == nil ? " → failed: \(errorDescription)" : " (\(errorDescription))"
        } else if mappedObjectCount > 0 {
            text += " (\(mappedObjectCount) object\(mappedObjectCount == 1 ? "" : "s"))"
        }
        return text
    }
}

/// The objects a request mapped and the response they came from (RKMappingResult).
public struct ObjectResult: Sendable {
    public var response: HTTPResponse
    public var objects: [ManagedObject]

    public var firstObject: ManagedObject? { objects.first }
}
