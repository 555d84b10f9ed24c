import Foundation
public import ObjectManager
public import Scenarios

/// The definitions of the steps that change the shared object manager, whose bodies follow.
extension BuiltInSteps {
    static let stubRoute = StepDefinition(
        name: "stub route",
        summary: "Re-points a route of the shared router",
        usage: ["{class, method, to}", "{relationship, class, method, to}", "{name, to}"]
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        let shape = try arguments.oneOf([
            .mapping(required: ["class", "method", "to"]),
            .mapping(required: ["relationship", "class", "method", "to"]),
            .mapping(required: ["name", "to"]),
        ])
        let to = try arguments.string("to")
        guard to.hasPrefix("/") else {
            throw StepArgumentError(
                "'to' takes a path pattern that starts with '/', like '/422', not '\(to)'.",
                at: arguments["to"]?.location ?? arguments.location
            )
        }
        switch shape {
        case 0:
            let entity = try arguments.string("class")
            let method = try method(arguments, "method")
            try check("\(entity) \(method)", is: .classRoute, arguments["class"], build)
            return .stubRoute(forClass: entity, method: method, toPathPattern: to)
        case 1:
            let name = try arguments.string("relationship")
            let entity = try arguments.string("class")
            let method = try method(arguments, "method")
            try check("\(name) of \(entity) \(method)", is: .relationshipRoute, arguments["relationship"], build)
            return .stubRoute(forRelationship: name, ofClass: entity, method: method, toPathPattern: to)
        default:
            let name = try arguments.string("name")
            try check(name, is: .namedRoute, arguments["name"], build)
            return .stubRoute(named: name, toPathPattern: to)
        }
    }

    static let suspendQueue = StepDefinition(
        name: "suspend queue",
        summary: "Suspends or resumes the request queue",
        usage: ["true", "false"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        .suspendQueue(try arguments.boolValue())
    }

    static let stubReachability = StepDefinition(
        name: "stub reachability",
        summary: "Fakes the network reachability status",
        usage: ReachabilityStatus.allCases.map(\.rawValue)
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        .stubReachability(try reachability(arguments))
    }

    static let cacheResponse = StepDefinition(
        name: "cache response",
        summary: "Stores a response in the response cache",
        usage: ["{path, method, data, status, headers}", "{path, method, fixture, status, headers}"]
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        let shape = try arguments.oneOf([
            .mapping(required: ["path", "data"], optional: ["method", "status", "headers"]),
            .mapping(required: ["path", "fixture"], optional: ["method", "status", "headers"]),
        ])
        let path = try arguments.string("path")
        let method = try arguments["method"] == nil ? .get : method(arguments, "method")
        let status = try arguments.optionalInt("status", in: statuses) ?? 200
        let headers = try stringValues(arguments["headers"], of: "headers")
        let body: CachedBody
        if shape == 0, let data = arguments["data"] {
            if case .string(let text) = data.value { body = .text(text) } else { body = .json(data.value.jsonValue) }
        } else {
            let name = try arguments.string("fixture")
            if let node = arguments["fixture"] { try build.checkFixture(name, at: node.location) }
            body = .fixture(name)
        }
        return .cacheResponse(path: path, method: method, status: status, headers: headers, body: body)
    }
}

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
