public import ObjectManager
public import Scenarios

/// The definitions of the steps that send requests, whose bodies follow.
extension BuiltInSteps {
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
}

/// What a `get objects` step loads.
public enum ObjectsSource: Sendable, Hashable, CustomStringConvertible {
    case route(String)
    case path(String)
    /// A relationship of an object bound with `as:`.
    case relationship(String, of: String)

    public var description: String {
        switch self {
        case .route(let name): "route \(name)"
        case .path(let path): path
        case .relationship(let name, let object): "\(name) of \(object)"
        }
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
    /// Sends a GET through router, queue, HTTP, mapping and store. The step returns at once; the
    /// request runs in the background (a suspended queue holds it) and `expect response` waits for it.
    public static func getObjects(_ source: ObjectsSource) -> Step {
        Step("get objects \(source)") { context in
            let manager = try context.objectManager
            let world = try context.world
            switch source {
            case .route(let name):
                world.launch(context) { _ = try? await manager.getObjects(forRouteNamed: name) }
            case .path(let path):
                let path = try context.interpolate(path)
                world.launch(context) { _ = try? await manager.getObjects(atPath: path) }
            case .relationship(let name, let objectName):
                let object = try boundObject(objectName, in: context)
                world.launch(context) { _ = try? await manager.getObjects(forRelationship: name, of: object) }
            }
            return .success
        }.returningPromptly()
    }

    /// Sends an object through its class route for `method` (POST, PUT or DELETE), in the background.
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
            try context.world.launch(context) {
                switch method {
                case .delete: _ = try? await manager.deleteObject(object)
                case .get: _ = try? await manager.getObject(object)
                default: _ = try? await manager.send(object, method: method)
                }
            }
            return .success
        }.returningPromptly()
    }

    static func boundObject(_ name: String, in context: ScenarioContext) throws -> ManagedObject {
        let trimmed = name.hasPrefix("${") && name.hasSuffix("}") ? String(name.dropFirst(2).dropLast()) : name
        guard let bound = context.binding(trimmed) as? BoundObject else { throw StepError.unboundObject(trimmed) }
        return bound.object
    }
}
