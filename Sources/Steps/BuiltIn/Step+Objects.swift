public import ObjectManager
public import Scenarios

/// The definitions of the steps that create and delete objects, whose bodies follow.
extension BuiltInSteps {
    static let createFromFactory = StepDefinition(
        name: "create from factory",
        summary: "Builds an object from a named factory",
        usage: ["{factory, properties, as}", "FACTORY"],
        bindsName: true
    ) { (arguments: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Step in
        if case .scalar = arguments.content {
            let factory = try arguments.scalar()
            try build.vocabulary.check(factory, is: .factory, at: arguments.location)
            var step = Step.createObject(fromFactory: factory, bindingAs: arguments.bindingName)
            step.boundEntity = build.vocabulary.factoryEntities[factory]
            return step
        }
        try arguments.rejectUnknownKeys(allowed: ["factory", "properties"])
        let factory = try arguments.string("factory")
        try check(factory, is: .factory, arguments["factory"], build)
        if let entity = build.vocabulary.factoryEntities[factory] {
            try build.vocabulary.checkAttributes(of: entity, in: arguments["properties"])
        }
        let properties = try arguments.optionalMapping("properties")?.value.attributeValues ?? [:]
        var step = Step.createObject(fromFactory: factory, properties: properties, bindingAs: arguments.bindingName)
        step.boundEntity = build.vocabulary.factoryEntities[factory]
        return step
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
        var step = Step.insertEntity(
            entity,
            attributes: attributes,
            save: try arguments.optionalBool("save") ?? true,
            bindingAs: arguments.bindingName
        )
        step.boundEntity = entity
        return step
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
}

extension Step {
    /// Builds an object from a named factory (inserted, unsaved, into the main context), with
    /// `properties` overriding the factory's attributes, then runs `configuration` on it.
    ///
    /// ```swift
    /// Step.createObject(fromFactory: "restaurant", properties: ["name": "Bistro"], bindingAs: "place")
    /// ```
    public static func createObject(
        fromFactory factory: String,
        properties: [String: AttributeValue] = [:],
        configuration: (@Sendable (ManagedObject) throws -> Void)? = nil,
        bindingAs name: String? = nil
    ) -> Step {
        Step("create from factory \(factory)" + (name.map { " as \($0)" } ?? "")) { context in
            let properties = try properties.interpolated(in: context)
            let object = try context.testEnvironment.factory.object(fromFactory: factory, properties: properties)
            try configuration?(object)
            if let name { context.bind(name, to: BoundObject(object)) }
            return .success
        }
    }

    /// One object from each named factory.
    public static func createObjects(fromFactories factories: [String]) -> Step {
        Step("create from factories \(factories.joined(separator: ", "))") { context in
            _ = try context.testEnvironment.factory.objects(fromFactories: factories)
            return .success
        }
    }

    /// Inserts an object of an entity into the default store's main context; `save: false` leaves
    /// it unsaved (visible to the main context only). The entity and attributes are checked.
    public static func insertEntity(
        _ entity: String,
        attributes: [String: AttributeValue] = [:],
        save: Bool = true,
        bindingAs name: String? = nil
    ) -> Step {
        Step("insert entity \(entity)" + (save ? "" : " (unsaved)") + (name.map { " as \($0)" } ?? "")) { context in
            guard let store = try context.objectManager.store else { throw StepError.noStore }
            let object = try store.mainContext.insert(
                entity: entity,
                attributes: try attributes.interpolated(in: context)
            )
            if save { try store.mainContext.save() }
            if let name { context.bind(name, to: BoundObject(object)) }
            return .success
        }
    }

    /// Deletes every object of an entity (or of every entity when `entity` is nil) and saves.
    public static func deleteEntities(_ entity: String?) -> Step {
        Step("delete entities " + (entity ?? "all")) { context in
            guard let store = try context.objectManager.store else { throw StepError.noStore }
            if let entity {
                try store.mainContext.deleteAll(entity)
            } else {
                try store.mainContext.deleteAllEntities()
            }
            try store.mainContext.save()
            return .success
        }
    }

    /// Runs `body` with the main context, then saves — for set-up that YAML cannot express.
    ///
    /// ```swift
    /// Step.performAndSave { context in
    ///     let place = try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1])
    ///     try place.setValue("Bistro", forAttribute: "name")
    /// }
    /// ```
    public static func performAndSave(
        _ description: String = "perform and save",
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> Void
    ) -> Step {
        Step(description) { context in
            guard let store = try context.objectManager.store else { throw StepError.noStore }
            try body(store.mainContext)
            try store.mainContext.save()
            return .success
        }
    }
}
