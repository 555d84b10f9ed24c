import Diagnostics
public import Foundation

/// Why an object request failed. Rendered to text in one place, `description`.
public enum ObjectManagerError: Error, Sendable, CustomStringConvertible {
    /// The request was cancelled (cancel-all, or its task was cancelled) before it completed.
    case cancelled(url: URL)
    /// Reachability says not reachable (and, for a GET, the response cache has nothing for it).
    case offline(method: HTTPMethod, url: URL, cacheChecked: Bool)
    /// The cache policy forbids loading and nothing is cached.
    case notCached(method: HTTPMethod, url: URL)
    /// No response within the request's timeout.
    case timedOut(url: URL, after: Duration)
    /// The connection could not be made or broke before a response.
    case connectionFailed(url: URL, reason: String)
    /// The server answered with an error status; `message` is what error mapping found in the body.
    case server(status: Int, message: String?, response: HTTPResponse)
    /// A successful response could not be mapped.
    case mapping(reason: String, response: HTTPResponse?)
    /// No URL could be built for the request.
    case routing(RoutingError)
    /// The request needs an object manager that is not there, or misses configuration.
    case misconfigured(String)

    public var description: String {
        switch self {
        case .cancelled(let url):
            "The request to \(url.path) was cancelled."
        case .offline(let method, let url, let cacheChecked):
            cacheChecked
                ? "The network is not reachable and no cached response exists for \(method) \(url.path)."
                : "The network is not reachable (\(method) \(url.path))."
        case .notCached(let method, let url):
            "No cached response for \(method) \(url.path), and the cache policy forbids loading."
        case .timedOut(let url, let timeout):
            "The request to \(url.path) timed out after \(timeout.shortSeconds) s."
        case .connectionFailed(let url, let reason):
            "The request to \(url.path) failed: \(reason)"
        case .server(let status, let message, _):
            message ?? "The server answered \(status)."
        case .mapping(let reason, _):
            "The response could not be mapped: \(reason)"
        case .routing(let error):
            error.description
        case .misconfigured(let reason):
            reason
        }
    }

    /// The HTTP response, for errors that have one.
    public var response: HTTPResponse? {
        switch self {
        case .server(_, _, let response): response
        case .mapping(_, let response): response
        default: nil
        }
    }

    /// The HTTP status the server answered with, when it answered: the error status of a `.server` error
    /// (`422`), or the status of a response that could not be mapped; `nil` when no answer came.
    ///
    /// Every object-manager call throws `ObjectManagerError` (typed throws), so a plain `catch` already has
    /// it; test the status inside (a `catch … where` clause on a typed error crashes the Swift 6.3.1
    /// compiler):
    ///
    /// ```swift
    /// do {
    ///     try await manager.postObject(review)
    /// } catch {
    ///     if error.httpStatus == 422 { showValidationMessage(error.errorMessage ?? error.description) }
    /// }
    /// ```
    public var httpStatus: Int? { response?.status }

    /// The body the server answered with, as text (UTF-8; `nil` when there was no answer, or it is not text).
    public var errorBody: String? {
        guard let body = response?.body, !body.isEmpty else { return nil }
        return String(bytes: body, encoding: .utf8)
    }

    /// What the manager's error mapping found in an error response's body (`Invalid object.`); `nil` for
    /// other failures, or when the mapping found nothing.
    public var errorMessage: String? {
        if case .server(_, let message, _) = self { message } else { nil }
    }

    /// Whether this is a cancellation.
    public var isCancellation: Bool {
        if case .cancelled = self { true } else { false }
    }
}
