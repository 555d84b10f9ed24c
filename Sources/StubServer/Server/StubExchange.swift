import Foundation

/// One request the stub server answered, as `serve --verbose` prints it:
///
/// ```
/// GET /restaurants?page=2 → 200 from Fixtures/server.yml:12 in 0.4 ms
/// GET /restaurant/5 → 404 (no route matched; nearest GET /restaurants/:restaurantID at Fixtures/server.yml:9: path differs) in 0.3 ms
/// GET /dropped → connection reset from Fixtures/server.yml:24 in 0.1 ms
/// ```
package struct StubExchange: Sendable, Equatable {
    /// What answered.
    package enum Source: Sendable, Equatable {
        /// A route, by its place (`Fixtures/server.yml:12`).
        case route(String)
        /// A file of the fixture folder, by its request path.
        case file(String)
        /// Nothing: the request's near misses.
        case unmatched(UnmatchedRequest)
        /// `POST /__scenario-run/reset`.
        case reset
        /// The server itself refused the request (a body over the limit).
        case refused
        /// Another server answered it (``Forwarding``).
        case forwarded
    }

    package var method: String
    package var target: String
    /// The status sent, or the fault that replaced the answer (`connection reset`).
    package var outcome: String
    package var source: Source
    package var duration: Duration

    package init(method: String, target: String, outcome: String, source: Source, duration: Duration) {
        self.method = method
        self.target = target
        self.outcome = outcome
        self.source = source
        self.duration = duration
    }

    /// The line `serve --verbose` prints.
    package var line: String {
        let from: String =
            switch source {
            case .route(let place): " from \(place)"
            case .file(let path): " from file \(path)"
            case .unmatched(let unmatched): " (\(unmatched.reason))"
            case .reset: " (scenario state reset)"
            case .refused: " (refused)"
            case .forwarded: " (forwarded)"
            }
        let milliseconds = Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
        return "\(method) \(target) → \(outcome)\(from) in \(String(format: "%.1f", milliseconds)) ms"
    }
}
