public import ObjectManager
public import Scenarios

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
