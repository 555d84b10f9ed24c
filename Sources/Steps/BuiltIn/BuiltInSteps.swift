package import Diagnostics
import Foundation
import ObjectManager
package import Scenarios

/// The built-in step vocabulary of SPEC.md §7, by name, as scenario files use it. Each definition
/// checks its arguments at load time and builds the step with the matching `Step` factory.
package enum BuiltInSteps {
    /// Every built-in definition, including the default set-up and tear-down steps.
    package static var definitions: [StepDefinition] {
        [
            StepDefinition(
                name: "set up the test environment",
                summary: "Fresh shared object manager, store, cache and journal"
            ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
                try noArguments(arguments)
                return .setUpTestEnvironment()
            },
            StepDefinition(
                name: "tear down the test environment",
                summary: "Cancel requests, empty the store and cache, drop shared instances"
            ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
                try noArguments(arguments)
                return .tearDownTestEnvironment()
            },
            stubRoute, suspendQueue, stubReachability, cacheResponse,
            createFromFactory, createFromFactories, insertEntity, deleteEntities,
            getObjects, objectRequest("post object", .post), objectRequest("put object", .put),
            objectRequest("delete object", .delete),
            expectResponse, expectEntities, expectPendingRequests, expectCachedResponse, expectRequest,
            expectReachability,
            StepDefinition(
                name: "wait for notification",
                summary: "Passes once the notification is posted",
                usage: ["NAME"]
            ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
                .waitForNotification(named: try arguments.scalar())
            },
            StepDefinition(
                name: "wait for requests",
                summary: "Passes when the queue is empty and nothing is in flight"
            ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
                try noArguments(arguments)
                return .waitForRequests()
            },
            StepDefinition(name: "wait", summary: "Passes after the time has passed", usage: ["SECONDS"]) {
                (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
                let seconds = try arguments.doubleValue()
                guard Duration(checkedSeconds: seconds) != nil else {
                    throw StepArgumentError(
                        "Step 'wait' takes a number of seconds from 0 to 86400 (a day).",
                        at: arguments.location
                    )
                }
                return .wait(seconds: seconds)
            },
            StepDefinition(name: "fail", summary: "Always fails", usage: ["REASON"]) {
                (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
                .fail(arguments.isEmpty ? "Failed on purpose" : try arguments.scalar())
            },
            StepDefinition(name: "succeed", summary: "Always passes", usage: ["REASON"]) {
                (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
                .succeed(arguments.isEmpty ? "Passed" : try arguments.scalar())
            },
        ]
    }

    /// A registry of the built-in steps plus the app's own. An app step without a name, or with the
    /// name of a built-in step or of another app step, is an error at the app step's Swift source.
    package static func registry(adding appSteps: [StepDefinition] = []) throws(DiagnosticList) -> StepRegistry {
        var builder = StepRegistry.Builder()
        do {
            try builder.register(contentsOf: definitions)
        } catch {
            preconditionFailure("The built-in steps have distinct names: \(error)")
        }
        var problems: [Diagnostic] = []
        var appNames: [String: StepDefinition] = [:]
        for step in appSteps {
            let key = StepRegistry.normalize(step.name)
            let message: String
            if let other = appNames[key] {
                message = "The app has two steps named '\(step.name)'; the other is at \(other.definedAt.fileAndLine)."
            } else if builder.contains(named: step.name) {
                message = "The app's step '\(step.name)' has the name of a built-in step; give it another name."
            } else {
                do {
                    try builder.register(step)
                    appNames[key] = step
                    continue
                } catch {
                    message = "The app's step '\(step.name)' cannot be registered: \(error)"
                }
            }
            problems.append(Diagnostic(location: step.definedAt, message: message, sourceLine: nil))
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return builder.build()
    }

    // MARK: Object manager

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
        let headers = try headerValues(arguments["headers"])
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

    // MARK: Objects

    static let createFromFactory = StepDefinition(
        name: "create from factory",
        summary: "Builds an object from a named factory",
        usage: ["{factory, properties, as}", "FACTORY"],
        bindsName: true
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        if case .scalar = arguments.content {
            let factory = try arguments.scalar()
            try build.vocabulary.check(factory, is: .factory, at: arguments.location)
            return .createObject(fromFactory: factory, bindingAs: arguments.bindingName)
        }
        try arguments.rejectUnknownKeys(allowed: ["factory", "properties"])
        let factory = try arguments.string("factory")
        try check(factory, is: .factory, arguments["factory"], build)
        if let entity = build.vocabulary.factoryEntities[factory] {
            try build.vocabulary.checkAttributes(of: entity, in: arguments["properties"])
        }
        let properties = try arguments.optionalMapping("properties")?.value.attributeValues ?? [:]
        return .createObject(fromFactory: factory, properties: properties, bindingAs: arguments.bindingName)
    }

    static let createFromFactories = StepDefinition(
        name: "create from factories",
        summary: "One object from each named factory",
        usage: ["[FACTORY, ...]"]
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        let items = try arguments.list()
        var names: [String] = []
        for item in items {
            let name = try item.scalar()
            try build.vocabulary.check(name, is: .factory, at: item.location)
            names.append(name)
        }
        return .createObjects(fromFactories: names)
    }

    static let insertEntity = StepDefinition(
        name: "insert entity",
        summary: "Inserts an object into the entity store",
        usage: ["{entity, attributes, save, as}"],
        bindsName: true
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        try arguments.rejectUnknownKeys(allowed: ["entity", "attributes", "save"])
        let entity = try arguments.string("entity")
        try check(entity, is: .entity, arguments["entity"], build)
        try build.vocabulary.checkAttributes(of: entity, in: arguments["attributes"])
        let attributes = try arguments.optionalMapping("attributes")?.value.attributeValues ?? [:]
        return .insertEntity(
            entity,
            attributes: attributes,
            save: try arguments.optionalBool("save") ?? true,
            bindingAs: arguments.bindingName
        )
    }

    static let deleteEntities = StepDefinition(
        name: "delete entities",
        summary: "Deletes every object of an entity, or of all entities, and saves",
        usage: ["{entity}", "all"]
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        if case .scalar = arguments.content {
            let text = try arguments.scalar()
            guard text.lowercased() == "all" else {
                try build.vocabulary.check(text, is: .entity, at: arguments.location)
                return .deleteEntities(text)
            }
            return .deleteEntities(nil)
        }
        _ = try arguments.oneOf([.mapping(required: ["entity"])])
        let entity = try arguments.string("entity")
        try check(entity, is: .entity, arguments["entity"], build)
        return .deleteEntities(entity)
    }

    // MARK: Requests

    static let getObjects = StepDefinition(
        name: "get objects",
        summary: "Sends a GET through router, queue, HTTP, mapping and store",
        usage: ["{route}", "{path}", "{relationship, of}"]
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        let shape = try arguments.oneOf([
            .mapping(required: ["route"]), .mapping(required: ["path"]), .mapping(required: ["relationship", "of"]),
        ])
        switch shape {
        case 0:
            let route = try arguments.string("route")
            try check(route, is: .namedRoute, arguments["route"], build)
            return .getObjects(.route(route))
        case 1:
            return .getObjects(.path(try arguments.string("path")))
        default:
            return .getObjects(.relationship(try arguments.string("relationship"), of: try arguments.boundName("of")))
        }
    }

    static func objectRequest(_ name: String, _ method: HTTPMethod) -> StepDefinition {
        StepDefinition(
            name: name,
            summary: "Sends an object through its class route",
            usage: ["{class, attributes}", "{object}"]
        ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
            let shape = try arguments.oneOf([
                .mapping(required: ["class"], optional: ["attributes"]), .mapping(required: ["object"]),
            ])
            if shape == 1 { return .sendObject(.bound(try arguments.boundName("object")), method: method) }
            let entity = try arguments.string("class")
            try check(entity, is: .entity, arguments["class"], build)
            try check("\(entity) \(method)", is: .classRoute, arguments["class"], build)
            try build.vocabulary.checkAttributes(of: entity, in: arguments["attributes"])
            let attributes = try arguments.optionalMapping("attributes")?.value.attributeValues ?? [:]
            return .sendObject(.new(entity: entity, attributes: attributes), method: method)
        }
    }

    // MARK: Expectations

    static let expectResponse = StepDefinition(
        name: "expect response",
        summary: "Passes when the last request has completed and matches",
        usage: ["{status, json, body contains, error}"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        _ = try arguments.oneOf([.mapping(required: [], optional: ["status", "json", "body contains", "error"])])
        return .expectResponse(
            status: try arguments.optionalInt("status", in: statuses),
            json: arguments["json"]?.value.jsonValue,
            bodyContains: try arguments.optionalString("body contains"),
            error: try arguments.optionalString("error")
        )
    }

    static let expectEntities = StepDefinition(
        name: "expect entities",
        summary: "Passes when the store holds that many matching objects",
        usage: ["{entity, count, where}"]
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        _ = try arguments.oneOf([.mapping(required: ["entity"], optional: ["count", "where"])])
        let entity = try arguments.string("entity")
        try check(entity, is: .entity, arguments["entity"], build)
        try build.vocabulary.checkAttributes(of: entity, in: arguments["where"])
        return .expectEntities(
            entity,
            count: try arguments.optionalInt("count", in: counts),
            where: try arguments.optionalMapping("where")?.value.attributeValues ?? [:]
        )
    }

    static let expectPendingRequests = StepDefinition(
        name: "expect pending requests",
        summary: "Passes when N requests are queued or in flight",
        usage: ["N"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        .expectPendingRequests(try arguments.intValue(in: counts))
    }

    static let expectCachedResponse = StepDefinition(
        name: "expect cached response",
        summary: "Passes when the cache holds a response for that URL",
        usage: ["{path, method}"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        _ = try arguments.oneOf([.mapping(required: ["path"], optional: ["method"])])
        let method = try arguments["method"] == nil ? .get : method(arguments, "method")
        return .expectCachedResponse(path: try arguments.string("path"), method: method)
    }

    static let expectRequest = StepDefinition(
        name: "expect request",
        summary: "Passes when the stub server's journal holds matching requests",
        usage: ["{method, path, count, json}"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        _ = try arguments.oneOf([.mapping(required: [], optional: ["method", "path", "count", "json"])])
        if arguments["method"] != nil { _ = try method(arguments, "method") }
        return .expectRequest(
            method: try arguments.optionalString("method"),
            path: try arguments.optionalString("path"),
            count: try arguments.optionalInt("count", in: counts),
            json: arguments["json"]?.value.jsonValue
        )
    }

    static let expectReachability = StepDefinition(
        name: "expect reachability",
        summary: "Passes when the HTTP client reports that status",
        usage: ReachabilityStatus.allCases.map(\.rawValue)
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        .expectReachability(try reachability(arguments))
    }

    // MARK: Argument helpers

    /// HTTP statuses a step may name.
    static let statuses = 100...599
    /// Counts a step may expect: never negative, and bounded so that no number is too large to compare.
    static let counts = 0...1_000_000

    static func noArguments(_ arguments: StepArguments) throws(StepArgumentError) {
        guard arguments.isEmpty else {
            throw StepArgumentError("Step '\(arguments.stepName)' takes no arguments.", at: arguments.location)
        }
    }

    static func method(_ arguments: StepArguments, _ key: String) throws(StepArgumentError) -> HTTPMethod {
        let text = try arguments.string(key)
        guard let method = HTTPMethod(name: text) else {
            let node = arguments[key]?.location ?? arguments.location
            throw StepArgumentError(
                "Unknown HTTP method '\(text)'."
                    + Suggestions.didYouMean(text.uppercased(), in: HTTPMethod.allCases.map(\.rawValue)),
                at: node
            )
        }
        return method
    }

    static func reachability(_ arguments: StepArguments) throws(StepArgumentError) -> ReachabilityStatus {
        let text = try arguments.scalar()
        guard let status = ReachabilityStatus(name: text) else {
            throw StepArgumentError(
                "Unknown reachability status '\(text)'."
                    + Suggestions.didYouMean(text, in: ReachabilityStatus.allCases.map(\.rawValue)),
                at: arguments.location
            )
        }
        return status
    }

    static func check(_ name: String, is kind: NameKind, _ node: StepArguments?, _ build: StepBuildContext)
        throws(StepArgumentError)
    {
        guard let node else { return }
        try build.vocabulary.check(name, is: kind, at: node.location)
    }

    static func headerValues(_ node: StepArguments?) throws(StepArgumentError) -> [String: String] {
        guard let node else { return [:] }
        guard case .mapping(let entries) = node.content else {
            throw StepArgumentError("'headers' takes a mapping of header names to values.", at: node.location)
        }
        var headers: [String: String] = [:]
        for entry in entries { headers[entry.key] = try entry.value.scalar() }
        return headers
    }
}
