import Foundation
public import ObjectManager
public import Scenarios

/// Where a `cache response` step takes the body from.
public enum CachedBody: Sendable {
    /// Inline data: text, or JSON for structured values.
    case json(JSONValue)
    case text(String)
    /// A file of the fixture folder.
    case fixture(String)
}

extension Step {
    /// Re-points the class route of an entity (RKKIFSteps stepToStubRoute…).
    ///
    /// ```swift
    /// Step.stubRoute(forClass: "Review", method: .post, toPathPattern: "/422")
    /// ```
    public static func stubRoute(forClass entity: String, method: HTTPMethod, toPathPattern pattern: String) -> Step {
        stubRoute(
            .class(entity: entity, method: method),
            to: pattern,
            description: "stub route \(entity) \(method) to \(pattern)"
        )
    }

    /// Re-points a relationship route.
    public static func stubRoute(
        forRelationship name: String,
        ofClass entity: String,
        method: HTTPMethod,
        toPathPattern pattern: String
    ) -> Step {
        stubRoute(
            .relationship(name: name, entity: entity, method: method),
            to: pattern,
            description: "stub route \(name) of \(entity) \(method) to \(pattern)"
        )
    }

    /// Re-points a named route.
    public static func stubRoute(named name: String, toPathPattern pattern: String) -> Step {
        stubRoute(.named(name), to: pattern, description: "stub route '\(name)' to \(pattern)")
    }

    private static func stubRoute(_ key: Route.Key, to pattern: String, description: String) -> Step {
        Step(description) { context in
            let path = try context.interpolate(pattern)
            do {
                try context.objectManager.router.replacePathPattern(of: key, with: PathPattern(path))
                return .success
            } catch let error as RoutingError {
                return .failure(error.description)
            }
        }.returningPromptly()
    }

    /// Suspends (`true`) or resumes (`false`) the shared request queue. (RKKIFSteps ignored `false`.)
    public static func suspendQueue(_ suspended: Bool) -> Step {
        Step("suspend queue: \(suspended)") { context in
            try context.objectManager.queue.isSuspended = suspended
            return .success
        }
    }

    /// Stops live reachability monitoring, sets the status and posts the reachability-changed notification.
    public static func stubReachability(_ status: ReachabilityStatus) -> Step {
        Step("stub reachability: \(status)") { context in
            try context.objectManager.client.stubReachability(status)
            return .success
        }
    }

    /// Stores a response for a URL relative to the base URL in the response cache.
    public static func cacheResponse(
        path: String,
        method: HTTPMethod = .get,
        status: Int = 200,
        headers: [String: String] = [:],
        body: CachedBody
    ) -> Step {
        Step("cache response \(method) \(path)") { context in
            let manager = try context.objectManager
            var fields = try headers.sorted { $0.key < $1.key }.map {
                HTTPHeader(name: $0.key, value: try context.interpolate($0.value))
            }
            let data: Data
            var contentType = "application/json"
            switch body {
            case .json(let json):
                data = try json.interpolated(in: context).encoded(sortedKeys: true)
            case .text(let text):
                data = Data(try context.interpolate(text).utf8)
                contentType = "text/plain"
            case .fixture(let name):
                let fixtures = try context.testEnvironment.fixtures
                data = try fixtures.data(named: name)
                contentType = fixtures.mimeType(named: name)
            }
            if fields[field: "Content-Type"] == nil {
                fields.append(HTTPHeader(name: "Content-Type", value: contentType))
            }
            let url = manager.router.url(forPath: try context.interpolate(path))
            manager.cache.store(CachedResponse(method: method, url: url, status: status, headers: fields, body: data))
            return .success
        }
    }
}
