package import ObjectManager
package import Scenarios

/// The definitions of the steps that create and delete objects, whose bodies follow.
extension BuiltInSteps {
    static let factoryName = StepArgument<String>.required("factory", .factory, "The named factory")
    static let factoryProperties = StepArgument<[String: AttributeValue]?>.optional(
        "properties",
        .attributes,
        "Attribute values that override the factory's"
    )

    static let createFromFactory = StepDefinition(
        "create from factory",
        summary: "Inserts an unsaved object from a named factory into the store (expect entities counts it; "
            + "nothing is sent); 'as: NAME' binds it",
        forms: [.value(factoryName), .mapping(factoryName.any, factoryProperties.any)],
        example: "create from factory: { factory: restaurant, as: place, properties: { name: Chez Swift } }",
        bindsName: true
    ) { input, build in
        let factory = try input.literal(factoryName)
        let properties = input.written(factoryProperties)
        if let entity = build.vocabulary.factoryEntities[factory] {
            try build.vocabulary.checkAttributes(of: entity, in: input.node(of: factoryProperties))
        }
        var step = Step.createObject(fromFactory: factory, properties: properties ?? [:], bindingAs: input.bindingName)
        step.boundEntity = build.vocabulary.factoryEntities[factory]
        return step
    }

    static let factoryNames = StepArgument<[String]>.required("factories", .list(of: .factory), "Named factories")

    static let createFromFactories = StepDefinition(
        "create from factories",
        summary: "Inserts an unsaved object from each named factory into the store; nothing is sent",
        forms: [.list(factoryNames)],
        example: "create from factories: [restaurant, review]"
    ) { input, _ in
        .createObjects(fromFactories: try input.literal(factoryNames))
    }

    static let insertedEntity = StepArgument<String>.required("entity", .entity, "The entity")
    static let insertedAttributes = StepArgument<[String: AttributeValue]?>.optional(
        "attributes",
        .attributes,
        "The new object's attribute values"
    )
    static let insertSaves = StepArgument<Bool>.optional(
        "save",
        .boolean,
        default: true,
        "false leaves it unsaved in the main context"
    )

    static let insertEntity = StepDefinition(
        "insert entity",
        summary: "Inserts an object into the entity store; 'as: NAME' binds it",
        forms: [.mapping(insertedEntity.any, insertedAttributes.any, insertSaves.any)],
        example: "insert entity: { entity: User, attributes: { name: Ada }, as: ada }",
        bindsName: true
    ) { input, build in
        let entity = try input.literal(insertedEntity)
        let attributes = input.written(insertedAttributes)
        try build.vocabulary.checkAttributes(of: entity, in: input.node(of: insertedAttributes))
        var step = Step.insertEntity(
            entity,
            attributes: attributes ?? [:],
            save: input[insertSaves],
            bindingAs: input.bindingName
        )
        step.boundEntity = entity
        return step
    }

    static let deletedEntity = StepArgument<String>.required(
        "entity",
        ArgumentType<String>(
            name: "entity name or all",
            schema: ["type": "string"],
            nameKind: .entity,
            namedSchema: { names in ["enum": .array((names + ["all"]).map(JSONValue.string))] }
        ) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<String> in
            let text = try ArgumentType<String>.string.readLiteral(node, build)
            if text.lowercased() == "all" { return Resolvable("all") }
            return try ArgumentType<String>.entity.read(node, build)
        },
        "The entity, or all for every entity"
    )

    static let deleteEntities = StepDefinition(
        "delete entities",
        summary: "Deletes every object of an entity, or of all entities, and saves",
        forms: [.value(deletedEntity), .mapping(deletedEntity.any)],
        example: "delete entities: all"
    ) { input, _ in
        let entity = try input.literal(deletedEntity)
        return .deleteEntities(entity == "all" && input.form == 0 ? nil : entity)
    }
}

extension Step {
    /// Builds an object from a named factory (inserted, unsaved, into the main context), with
    /// `properties` overriding the factory's attributes, then runs `configuration` on it.
    ///
    /// ```swift
    /// Step.createObject(fromFactory: "restaurant", properties: ["name": "Bistro"], bindingAs: "place")
    /// ```
    package static func createObject(
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
    package static func createObjects(fromFactories factories: [String]) -> Step {
        Step("create from factories \(factories.joined(separator: ", "))") { context in
            _ = try context.testEnvironment.factory.objects(fromFactories: factories)
            return .success
        }
    }

    /// Inserts an object of an entity into the default store's main context; `save: false` leaves
    /// it unsaved (visible to the main context only). The entity and attributes are checked.
    package static func insertEntity(
        _ entity: String,
        attributes: [String: AttributeValue] = [:],
        save: Bool = true,
        bindingAs name: String? = nil
    ) -> Step {
        insertEntity(entity, attributes: attributes, save: Resolvable(save), bindingAs: name)
    }

    /// ``insertEntity(_:attributes:save:bindingAs:)`` with `save` that may be written with `${…}`:
    /// converted when the step runs, as an app step's argument is.
    package static func insertEntity(
        _ entity: String,
        attributes: [String: AttributeValue],
        save: Resolvable<Bool>,
        bindingAs name: String?
    ) -> Step {
        let saving = save.literal.map { $0 ? "" : " (unsaved)" } ?? save.described { " (save: \($0))" }
        return Step("insert entity \(entity)" + saving + (name.map { " as \($0)" } ?? "")) { context in
            let save = try save.resolve(in: context)
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
    package static func deleteEntities(_ entity: String?) -> Step {
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
    package static func performAndSave(
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
