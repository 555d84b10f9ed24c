import Diagnostics
public import ObjectManager
public import Scenarios

/// The definitions of the steps that send requests, whose bodies follow.
extension BuiltInSteps {
    static let getObjects = StepDefinition(
        name: "get objects",
        summary: "Sends a GET through router, queue, HTTP, mapping and store",
        usage: ["{route, parameters}", "{path, parameters}", "{relationship, of, parameters}"]
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        let shape = try arguments.oneOf([
            .mapping(required: ["route"], optional: ["parameters"]),
            .mapping(required: ["path"], optional: ["parameters"]),
            .mapping(required: ["relationship", "of"], optional: ["parameters"]),
        ])
        let parameters = try stringValues(arguments["parameters"], of: "parameters")
        switch shape {
        case 0:
            let route = try arguments.string("route")
            try check(route, is: .namedRoute, arguments["route"], build)
            try checkPlaceholders(ofRoute: route, filledBy: parameters, arguments, build)
            return .getObjects(.route(route, parameters: parameters))
        case 1:
            return .getObjects(.path(try arguments.string("path"), parameters: parameters))
        default:
            return .getObjects(
                .relationship(
                    try arguments.string("relationship"),
                    of: try arguments.boundName("of"),
                    parameters: parameters
                )
            )
        }
    }

    /// Throws, at the step, when a named route has a placeholder that `parameters` do not fill:
    /// `Route 'search' (/messages/search?q=:query) needs a value for ':query': give it in 'parameters'.`
    static func checkPlaceholders(
        ofRoute route: String,
        filledBy parameters: [String: String],
        _ arguments: StepArguments,
        _ build: StepBuildContext
    ) throws(StepArgumentError) {
        guard let pattern = build.vocabulary.namedRoutePatterns[route] else { return }
        let missing = PathPattern(pattern).parameterNames.filter { parameters[$0] == nil }
        guard let first = missing.first else { return }
        let near = Suggestions.nearest(to: first, in: parameters.keys)
        throw StepArgumentError(
            "Route '\(route)' (\(pattern)) needs a value for ':\(first)': give it in 'parameters', like "
                + "'parameters: { \(first): … }'."
                + (near.isEmpty ? "" : " 'parameters' has '\(near.joined(separator: "', '"))'."),
            at: (arguments["parameters"] ?? arguments).location
        )
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
}

/// What a `get objects` step loads. `parameters` fill the path's `:placeholders`; the rest become
/// the query (`${…}` resolved in every value when the step runs).
public enum ObjectsSource: Sendable, Hashable, CustomStringConvertible {
    case route(String, parameters: [String: String] = [:])
    case path(String, parameters: [String: String] = [:])
    /// A relationship of an object bound with `as:`.
    case relationship(String, of: String, parameters: [String: String] = [:])

    public var description: String {
        let (text, parameters) =
            switch self {
            case .route(let name, let parameters): ("route \(name)", parameters)
            case .path(let path, let parameters): (path, parameters)
            case .relationship(let name, let object, let parameters): ("\(name) of \(object)", parameters)
            }
        guard !parameters.isEmpty else { return text }
        return text + " with "
            + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: ", ")
    }
}

/// Which object an object request sends.
public enum ObjectReference: Sendable, Hashable {
    /// A new object of an entity with these attributes (not inserted until the response maps onto it).
    case new(entity: String, attributes: [String: AttributeValue])
    /// An object bound earlier with `as:`.
    case bound(String)
}

extension Step {
    /// Sends a GET through router, queue, HTTP, mapping and store. The request is built when the step
    /// runs — an unknown route or a placeholder with no value fails the step at once, with the reason —
    /// then sent in the background (a suspended queue holds it); `expect response` waits for it.
    public static func getObjects(_ source: ObjectsSource) -> Step {
        Step("get objects \(source)") { context in
            let manager = try context.objectManager
            let request: ObjectRequest
            do {
                switch source {
                case .route(let name, let parameters):
                    request = try manager.request(
                        forRouteNamed: name,
                        parameters: try parameters.mapValues { try context.interpolate($0) }
                    )
                case .path(let path, let parameters):
                    request = manager.request(
                        atPath: try context.interpolate(path),
                        parameters: try parameters.mapValues { try context.interpolate($0) }
                    )
                case .relationship(let name, let objectName, let parameters):
                    request = try manager.request(
                        forRelationship: name,
                        of: try boundObject(objectName, in: context),
                        parameters: try parameters.mapValues { try context.interpolate($0) }
                    )
                }
            } catch let error as ObjectManagerError {
                return .failure(error.description)
            }
            try context.world.launch(context) { _ = try? await manager.perform(request) }
            return .success
        }.returningPromptly()
    }

    /// Sends an object through its class route for `method` (POST, PUT or DELETE). The request is
    /// built when the step runs — an object without the value its route's placeholder needs fails the
    /// step at once — then sent in the background.
    public static func sendObject(_ reference: ObjectReference, method: HTTPMethod) -> Step {
        let what =
            switch reference {
            case .new(let entity, _): entity
            case .bound(let name): name
            }
        return Step("\(method.rawValue.lowercased()) object \(what)") { context in
            let manager = try context.objectManager
            let object: ManagedObject
            switch reference {
            case .new(let entity, let attributes):
                guard let description = manager.store?.model.entity(named: entity) else {
                    return .failure("Unknown entity '\(entity)'.")
                }
                object = try ManagedObject(entity: description, attributes: try attributes.interpolated(in: context))
            case .bound(let name):
                object = try boundObject(name, in: context)
            }
            let request: ObjectRequest
            do throws(ObjectManagerError) {
                request = try manager.request(sending: object, method: method)
            } catch {
                return .failure(error.description)
            }
            try context.world.launch(context) { _ = try? await manager.perform(request) }
            return .success
        }.returningPromptly()
    }

    static func boundObject(_ name: String, in context: ScenarioContext) throws -> ManagedObject {
        let trimmed = name.hasPrefix("${") && name.hasSuffix("}") ? String(name.dropFirst(2).dropLast()) : name
        guard let bound = context.binding(trimmed) as? BoundObject else { throw StepError.unboundObject(trimmed) }
        return bound.object
    }
}
