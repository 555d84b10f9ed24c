/// A request no route answered and no fixture file served, with its nearest routes: what the 404 body,
/// the scenario's log, `serve --verbose` and `unmatched requests: fail` report.
package struct UnmatchedRequest: Sendable, Equatable {
    /// The upper-cased method.
    package var method: String
    /// The path and query as sent.
    package var target: String
    /// The nearest routes, nearest first; empty when the server has none.
    package var nearest: [NearMiss]

    package init(method: String, target: String, nearest: [NearMiss]) {
        self.method = method
        self.target = target
        self.nearest = nearest
    }

    /// `no route matched; nearest GET /restaurants/:restaurantID at Fixtures/server.yml:9: path differs`,
    /// further near misses `; `-separated.
    package var reason: String {
        "no route matched" + (nearest.isEmpty ? "" : "; nearest " + nearest.map(\.description).joined(separator: "; "))
    }

    /// `GET /restaurant/5 → 404 (no route matched; nearest …)`, as the scenario's log shows it.
    package var logLine: String {
        "\(method) \(target) → 404 (\(reason))"
    }
}
