import Diagnostics
package import ObjectManager
package import Scenarios

/// The definitions of the steps that send requests, whose bodies follow.
extension BuiltInSteps {
    static let objectsRoute = StepArgument<String>.required("route", .namedRoute, "A named route")
    static let objectsPath = StepArgument<String>.required("path", .string, "A path relative to the base URL")
    static let objectsRelationship = StepArgument<String>.required("relationship", .string, "A relationship's name")
    static let objectsOf = StepArgument<String>.required(
        "of",
        .boundObject,
        "The object bound with 'as:' it belongs to"
    )
    static let objectsParameters = StepArgument<[String: String]?>.optional(
        "parameters",
        .textMapping,
        "Values of the path's :placeholders; the rest become the query"
    )

    static let getObjects = StepDefinition(
        "get objects",
        summary: "Sends a GET through router, queue, HTTP, mapping and store",
        forms: [
            .mapping(objectsRoute.any, objectsParameters.any),
            .mapping(objectsPath.any, objectsParameters.any),
            .mapping(objectsRelationship.any, objectsOf.any, objectsParameters.any),
        ],
        example: "get objects: { route: restaurant, parameters: { restaurantID: 12, include: reviews } }"
    ) { input, build in
        let parameters = input.written(objectsParameters) ?? [:]
        switch input.form {
        case 0:
            let route = try input.literal(objectsRoute)
            try checkPlaceholders(
                ofRoute: route,
                filledBy: parameters,
                at: input.location(of: objectsParameters),
                build
            )
            return .getObjects(.route(route, parameters: parameters))
        case 1:
            return .getObjects(.path(try input.asWritten(objectsPath), parameters: parameters))
        default:
            return .getObjects(
                .relationship(
                    try input.literal(objectsRelationship),
                    of: try input.literal(objectsOf),
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
        at location: SourceLocation,
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
            at: location
        )
    }

    static let sentClass = StepArgument<String>.required("class", .entity, "A new object of this entity")
    static let sentAttributes = StepArgument<[String: AttributeValue]?>.optional(
        "attributes",
        .attributes,
        "The new object's attribute values"
    )
    static let sentObject = StepArgument<String>.required("object", .boundObject, "An object bound with 'as:'")

    static func objectRequest(_ name: String, _ method: HTTPMethod) -> StepDefinition {
        StepDefinition(
            name,
            summary: "Sends an object through its class route (\(method))",
            forms: [.mapping(sentClass.any, sentAttributes.any), .mapping(sentObject.any)],
            example: "\(name): { class: Review, attributes: { restaurantID: 1, title: Lovely } }"
        ) { input, build in
            if input.form == 1 { return .sendObject(.bound(try input.literal(sentObject)), method: method) }
            let entity = try input.literal(sentClass)
            try build.vocabulary.check("\(entity) \(method)", is: .classRoute, at: input.location(of: sentClass))
            try build.vocabulary.checkAttributes(of: entity, in: input.node(of: sentAttributes))
            let attributes = input.written(sentAttributes) ?? [:]
            return .sendObject(.new(entity: entity, attributes: attributes), method: method)
        }
    }
}

/// What a `get objects` step loads. `parameters` fill the path's `:placeholders`; the rest become
/// the query (`${…}` resolved in every value when the step runs).
package enum ObjectsSource: Sendable, Hashable, CustomStringConvertible {
    case route(String, parameters: [String: String] = [:])
    case path(String, parameters: [String: String] = [:])
    /// A relationship of an object bound with `as:`.
    case relationship(String, of: String, parameters: [String: String] = [:])

    package var description: String {
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
package enum ObjectReference: Sendable, Hashable {
    /// A new object of an entity with these attributes (not inserted until the response maps onto it).
    case new(entity: String, attributes: [String: AttributeValue])
    /// An object bound earlier with `as:`.
    case bound(String)
}

extension Step {
    /// Sends a GET through router, queue, HTTP, mapping and store. The request is built when the step
    /// runs — an unknown route or a placeholder with no value fails the step at once, with the reason —
    /// then sent in the background (a suspended queue holds it); `expect response` waits for it.
    package static func getObjects(_ source: ObjectsSource) -> Step {
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
            // Its place among the requests is the step's, whenever the task first runs (`expect response`).
            let order = manager.reserveSendOrder()
            try context.world.launchBuiltIn(context) { _ = try? await manager.perform(request, sendOrder: order) }
            return .success
        }.returningPromptly()
    }

    /// Sends an object through its class route for `method` (POST, PUT or DELETE). The request is
    /// built when the step runs — an object without the value its route's placeholder needs fails the
    /// step at once — then sent in the background.
    package static func sendObject(_ reference: ObjectReference, method: HTTPMethod) -> Step {
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
            // Its place among the requests is the step's, whenever the task first runs (`expect response`).
            let order = manager.reserveSendOrder()
            try context.world.launchBuiltIn(context) { _ = try? await manager.perform(request, sendOrder: order) }
            return .success
        }.returningPromptly()
    }

    static func boundObject(_ name: String, in context: ScenarioContext) throws -> ManagedObject {
        let trimmed = name.hasPrefix("${") && name.hasSuffix("}") ? String(name.dropFirst(2).dropLast()) : name
        guard let bound = context.binding(trimmed) as? BoundObject else { throw StepError.unboundObject(trimmed) }
        return bound.object
    }
}
