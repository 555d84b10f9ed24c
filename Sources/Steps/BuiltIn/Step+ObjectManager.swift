import Foundation
package import ObjectManager
package import Scenarios

/// The definitions of the steps that change the shared object manager, whose bodies follow.
extension BuiltInSteps {
    static let routeClass = StepArgument<String>.required("class", .entity, "The entity whose route it is")
    static let routeMethod = StepArgument<HTTPMethod>.required("method", .method, "The route's HTTP method")
    static let routeRelationship = StepArgument<String>.required("relationship", .string, "The relationship's name")
    static let routeName = StepArgument<String>.required("name", .namedRoute, "The named route")
    static let routeTo = StepArgument<String>.required(
        "to",
        ArgumentType<String>.string.checked { pattern, node, _ throws(StepArgumentError) in
            guard pattern.hasPrefix("/") else {
                throw StepArgumentError(
                    "'to' takes a path pattern that starts with '/', like '/422', not '\(pattern)'.",
                    at: node.location
                )
            }
        },
        "The path pattern the route answers with from now on"
    )

    static let stubRoute = StepDefinition(
        "stub route",
        summary: "Re-points a route of the shared router",
        forms: [
            .mapping(routeClass.any, routeMethod.any, routeTo.any),
            .mapping(routeRelationship.any, routeClass.any, routeMethod.any, routeTo.any),
            .mapping(routeName.any, routeTo.any),
        ],
        example: "stub route: { class: Review, method: POST, to: /422 }"
    ) { input, build in
        let to = try input.literal(routeTo)
        switch input.form {
        case 0:
            let entity = try input.literal(routeClass)
            let method = try input.literal(routeMethod)
            try build.vocabulary.check("\(entity) \(method)", is: .classRoute, at: input.location(of: routeClass))
            return .stubRoute(forClass: entity, method: method, toPathPattern: to)
        case 1:
            let name = try input.literal(routeRelationship)
            let entity = try input.literal(routeClass)
            let method = try input.literal(routeMethod)
            try build.vocabulary.check(
                "\(name) of \(entity) \(method)",
                is: .relationshipRoute,
                at: input.location(of: routeRelationship)
            )
            return .stubRoute(forRelationship: name, ofClass: entity, method: method, toPathPattern: to)
        default:
            return .stubRoute(named: try input.literal(routeName), toPathPattern: to)
        }
    }

    static let suspended = StepArgument<Bool>.required("suspended", .boolean, "true suspends, false resumes")

    static let suspendQueue = StepDefinition(
        "suspend queue",
        summary: "Suspends or resumes the request queue",
        forms: [.value(suspended)],
        example: "suspend queue: true"
    ) { input, _ in
        .suspendQueue(input[suspended])
    }

    static let reachabilityStatus = StepArgument<ReachabilityStatus>.required(
        "status",
        .choice(ReachabilityStatus.self),
        "The status the HTTP client reports"
    )

    static let stubReachability = StepDefinition(
        "stub reachability",
        summary: "Stops live monitoring, sets the reachability status and posts the change notification",
        forms: [.value(reachabilityStatus)],
        example: "stub reachability: not reachable"
    ) { input, _ in
        .stubReachability(try input.literal(reachabilityStatus))
    }

    static let cachePath = StepArgument<String>.required("path", .string, "The URL's path, relative to the base URL")
    static let cacheMethod = StepArgument<HTTPMethod>.optional("method", .method, default: .get, "The request's method")
    static let cacheData = StepArgument<JSONValue>.required(
        "data",
        .json,
        "The body: text, or JSON for structured values"
    )
    static let cacheFixture = StepArgument<String>.required("fixture", .fixture, "A file of the fixture folder")
    static let cacheStatus = StepArgument<Int>.optional(
        "status",
        .integer(in: statuses),
        default: 200,
        "The response's status"
    )
    static let cacheHeaders = StepArgument<[String: String]?>.optional(
        "headers",
        .textMapping,
        "The response's headers"
    )

    static let cacheResponse = StepDefinition(
        "cache response",
        summary: "Stores a response in the response cache",
        forms: [
            .mapping(cachePath.any, cacheMethod.any, cacheData.any, cacheStatus.any, cacheHeaders.any),
            .mapping(cachePath.any, cacheMethod.any, cacheFixture.any, cacheStatus.any, cacheHeaders.any),
        ],
        example: "cache response: { path: /restaurants, fixture: restaurants.json }"
    ) { input, _ in
        let body: CachedBody
        if input.form == 0 {
            let data = try input.asWritten(cacheData)
            if case .string(let text) = data { body = .text(text) } else { body = .json(data) }
        } else {
            body = .fixture(try input.literal(cacheFixture))
        }
        return .cacheResponse(
            path: try input.asWritten(cachePath),
            method: try input.literal(cacheMethod),
            status: input[cacheStatus],
            headers: input.written(cacheHeaders) ?? [:],
            body: body
        )
    }
}

/// Where a `cache response` step takes the body from.
package enum CachedBody: Sendable {
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
    package static func stubRoute(forClass entity: String, method: HTTPMethod, toPathPattern pattern: String) -> Step {
        stubRoute(
            .class(entity: entity, method: method),
            to: pattern,
            description: "stub route \(entity) \(method) to \(pattern)"
        )
    }

    /// Re-points a relationship route.
    package static func stubRoute(
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
    package static func stubRoute(named name: String, toPathPattern pattern: String) -> Step {
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
    package static func suspendQueue(_ suspended: Bool) -> Step {
        suspendQueue(Resolvable(suspended))
    }

    /// ``suspendQueue(_:)`` with a value that may be written with `${…}`: converted when the step runs, as
    /// an app step's argument is.
    package static func suspendQueue(_ suspended: Resolvable<Bool>) -> Step {
        Step("suspend queue: \(suspended.described(String.init))") { context in
            try context.objectManager.queue.isSuspended = suspended.resolve(in: context)
            return .success
        }
    }

    /// Stops live reachability monitoring, sets the status and posts the reachability-changed notification.
    package static func stubReachability(_ status: ReachabilityStatus) -> Step {
        Step("stub reachability: \(status)") { context in
            try context.objectManager.client.stubReachability(status)
            return .success
        }
    }

    /// Stores a response for a URL relative to the base URL in the response cache.
    package static func cacheResponse(
        path: String,
        method: HTTPMethod = .get,
        status: Int = 200,
        headers: [String: String] = [:],
        body: CachedBody
    ) -> Step {
        cacheResponse(path: path, method: method, status: Resolvable(status), headers: headers, body: body)
    }

    /// ``cacheResponse(path:method:status:headers:body:)`` with a status that may be written with `${…}`:
    /// converted when the step runs, as an app step's argument is.
    package static func cacheResponse(
        path: String,
        method: HTTPMethod,
        status: Resolvable<Int>,
        headers: [String: String],
        body: CachedBody
    ) -> Step {
        Step("cache response \(method) \(path)") { context in
            let status = try status.resolve(in: context)
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
