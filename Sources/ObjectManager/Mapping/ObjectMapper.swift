import Diagnostics

/// The mapping engine: turns JSON objects into managed objects of a context, upserting by identification.
package struct ObjectMapper: Sendable {
    package init() {}

    /// Maps a JSON object or array of objects with `mapping` into `context` and returns the mapped objects in order.
    ///
    /// An object whose identification values match an object in the context (saved or not, also one mapped
    /// earlier in the same payload) is updated, never duplicated. `target` maps the (first) JSON object onto
    /// that object instead — a response to a POST onto the posted object — and inserts it when it is not in
    /// the context.
    package func map(
        _ json: JSONValue,
        with mapping: EntityMapping,
        in context: ManagedObjectContext,
        onto target: ManagedObject? = nil
    ) throws(MappingError) -> [ManagedObject] {
        switch json {
        case .object(let members):
            var index: IdentityIndex?
            let plan = try Plan(mapping, in: context)
            var values: [(position: Int, value: AttributeValue)] = []
            return [try map(object: members, with: plan, in: context, onto: target, index: &index, values: &values)]
        case .array(let elements):
            // One query for the whole payload instead of one per object: index the objects the context
            // already has by identification value, and add each new one as it is inserted.
            if elements.isEmpty { return [] }
            let plan = try Plan(mapping, in: context)
            var index = try identityIndex(for: plan, in: context, size: elements.count)
            var result: [ManagedObject] = []
            result.reserveCapacity(elements.count)
            // One buffer for every object's values (emptied for each), not one allocated per object.
            var values: [(position: Int, value: AttributeValue)] = []
            values.reserveCapacity(plan.attributes.count)
            for (offset, element) in elements.enumerated() {
                guard case .object(let members) = element else {
                    throw .notAnObject(entity: mapping.entity, found: element.text)
                }
                result.append(
                    try map(
                        object: members,
                        with: plan,
                        in: context,
                        onto: offset == 0 ? target : nil,
                        index: &index,
                        values: &values
                    )
                )
            }
            return result
        default:
            throw .notAnObject(entity: mapping.entity, found: json.text)
        }
    }

    /// What a mapping does to every object of a payload, worked out once for it: the entity, where each
    /// attribute mapping reads and writes, and the identification's attributes.
    private struct Plan {
        struct Attribute {
            let mapping: AttributeMapping
            /// Whether the key path walks into nested objects (`location.city`); a plain key is a member.
            let isPath: Bool
            /// Its position in the entity's attributes; `nil` for a name the entity lacks (an error once
            /// an object has a value for it).
            let position: Int?
        }

        let mapping: EntityMapping
        let entity: EntityDescription
        let attributes: [Attribute]
        /// The identification attributes, each with its position (`nil` for a name the entity lacks).
        let identification: [(name: String, position: Int?)]
        /// A null for each of the entity's attributes: a new object's values start as a copy of it.
        let nulls: [AttributeValue]

        init(_ mapping: EntityMapping, in context: ManagedObjectContext) throws(MappingError) {
            let entity: EntityDescription
            do {
                entity = try context.entity(named: mapping.entity)
            } catch {
                throw .store(error)
            }
            self.mapping = mapping
            self.entity = entity
            attributes = mapping.attributeMappings.map { attributeMapping in
                Attribute(
                    mapping: attributeMapping,
                    isPath: Self.isPath(attributeMapping.keyPath),
                    position: entity.attributeIndex(named: attributeMapping.attribute)
                )
            }
            identification = (mapping.identificationAttributes ?? entity.identificationAttribute.map { [$0] } ?? [])
                .map { ($0, entity.attributeIndex(named: $0)) }
            nulls = Array(repeating: .null, count: entity.attributes.count)
        }

        /// Whether `keyPath` walks into nested objects (`location.city`) rather than naming a member.
        static func isPath(_ keyPath: String) -> Bool {
            keyPath.utf8.contains(UInt8(ascii: "."))
        }
    }

    private func map(
        object members: [String: JSONValue],
        with plan: Plan,
        in context: ManagedObjectContext,
        onto target: ManagedObject?,
        index: inout IdentityIndex?,
        values: inout [(position: Int, value: AttributeValue)]
    ) throws(MappingError) -> ManagedObject {
        // The plan's mapping is read in place: a copy of it per object retained each of its arrays.
        let entity = plan.entity
        /// A plain key is a member; only a dotted key path needs the walk.
        func source(_ keyPath: String, isPath: Bool) -> JSONValue? {
            isPath ? JSONValue.object(members)[keyPath: keyPath] : Self.member(keyPath, of: members)
        }

        // The values this object has, converted, by attribute position, in mapping order (in the caller's
        // buffer).
        values.removeAll(keepingCapacity: true)
        for attribute in plan.attributes {
            guard let source = source(attribute.mapping.keyPath, isPath: attribute.isPath) else { continue }
            guard let position = attribute.position else {
                throw .store(
                    .unknownAttribute(
                        entity: entity.name,
                        attribute: attribute.mapping.attribute,
                        suggestions: Suggestions.nearest(to: attribute.mapping.attribute, in: entity.attributeNames)
                    )
                )
            }
            let description = entity.attributes[position]
            do {
                values.append(
                    (position, try source.converted(to: description.type, dateFormats: plan.mapping.dateFormats))
                )
            } catch {
                throw .invalidValue(
                    entity: entity.name,
                    attribute: description.name,
                    keyPath: attribute.mapping.keyPath,
                    error
                )
            }
        }

        var inserted = false
        let object = try store { () throws(StoreError) -> ManagedObject in
            if let target {
                try context.insert(target)
                return target
            }
            // An identification value: the last one for an attribute mapped twice; none when it is not
            // there or null.
            func identifying(_ position: Int?) -> AttributeValue? {
                guard let position, let value = values.last(where: { $0.position == position })?.value,
                    !value.isNull
                else { return nil }
                return value
            }
            if let index, plan.identification.count == 1 {
                // One identification attribute, looked up in the index (no list of one value made per object).
                if let value = identifying(plan.identification[0].position), let existing = index.objects[value] {
                    return existing
                }
            } else {
                // Every identification value, or none unless each is there.
                var conditions: [String: AttributeValue] = [:]
                for (name, position) in plan.identification {
                    guard let value = identifying(position) else {
                        conditions = [:]
                        break
                    }
                    conditions[name] = value
                }
                if !conditions.isEmpty, let existing = try context.fetch(entity.name, where: conditions).first {
                    return existing
                }
            }
            // A new object gets every value at once, by position, already converted (the last one for an
            // attribute mapped twice).
            inserted = true
            var positional = plan.nulls
            for (position, value) in values { positional[position] = value }
            let object = ManagedObject(entity: entity, converted: positional, rowID: nil, context: nil)
            // Its entity is the plan's, which the context gave.
            context.insert(described: object)
            return object
        }
        if !inserted {
            for (position, value) in values { object.setConverted(value, at: position) }
        }
        if let position = index?.position {
            let key = object.value(at: position)
            if !key.isNull { index?.objects[key] = object }
        }

        for relationshipMapping in plan.mapping.relationshipMappings {
            guard let nested = source(relationshipMapping.keyPath, isPath: Plan.isPath(relationshipMapping.keyPath)),
                !nested.isNull
            else { continue }
            guard let relationship = entity.relationship(named: relationshipMapping.relationship) else {
                throw .store(
                    .unknownRelationship(
                        entity: entity.name,
                        relationship: relationshipMapping.relationship,
                        suggestions: Suggestions.nearest(
                            to: relationshipMapping.relationship,
                            in: entity.relationships.map(\.name)
                        )
                    )
                )
            }
            guard let nestedMapping = relationshipMapping.mapping else {
                try link(
                    object,
                    toIdentificationsIn: nested,
                    at: relationshipMapping.keyPath,
                    through: relationship,
                    in: context,
                    dateFormats: plan.mapping.dateFormats
                )
                continue
            }
            let children = try map(nested, with: nestedMapping, in: context)
            try store { () throws(StoreError) in
                try connect(object, to: children, through: relationship, in: context)
            }
        }
        return object
    }

    /// The member `key` of a JSON object. A small object's members are compared one by one: hashing the
    /// key costs more than comparing it with a few names (an object of a payload has a handful, each looked
    /// up by every attribute mapping, present or not).
    private static func member(_ key: String, of members: [String: JSONValue]) -> JSONValue? {
        guard members.count <= 8 else { return members[key] }
        for (name, value) in members where name == key { return value }
        return nil
    }

    /// The objects a context has for an entity, by their (single) identification value.
    struct IdentityIndex {
        /// The identification attribute's position in the entity's attributes.
        var position: Int
        var objects: [AttributeValue: ManagedObject]
    }

    /// An index for mapping `size` objects, when the mapping identifies by one attribute and there are
    /// enough objects to make one query cheaper than a query per object.
    private func identityIndex(
        for plan: Plan,
        in context: ManagedObjectContext,
        size: Int
    ) throws(MappingError) -> IdentityIndex? {
        guard size > 1, plan.identification.count == 1, let position = plan.identification[0].position else {
            return nil
        }
        return try store { () throws(StoreError) -> IdentityIndex? in
            let existing = try context.fetch(plan.entity.name)
            // Room for the payload's objects too: each new one is added as it is inserted.
            var objects = [AttributeValue: ManagedObject](minimumCapacity: existing.count + size)
            for object in existing {
                let key = object.value(at: position)
                if !key.isNull, objects[key] == nil { objects[key] = object }
            }
            return IdentityIndex(position: position, objects: objects)
        }
    }

    /// Sets the foreign keys that make `children` the related objects of `object`, or for a many-to-many
    /// relationship replaces its links with links to them.
    private func connect(
        _ object: ManagedObject,
        to children: [ManagedObject],
        through relationship: RelationshipDescription,
        in context: ManagedObjectContext
    ) throws(StoreError) {
        if relationship.isManyToMany {
            try context.setLinks(from: object, through: relationship.name, to: children)
        } else if relationship.isToMany {
            guard let identification = object.entity.identificationAttribute else {
                throw .noIdentificationAttribute(entity: object.entity.name)
            }
            let value = object[identification]
            guard !value.isNull else { return }
            for child in children {
                try child.setValue(value, forAttribute: relationship.foreignKey)
            }
        } else if let child = children.last {
            let destination = try context.entity(named: relationship.destination)
            guard let identification = destination.identificationAttribute else {
                throw .noIdentificationAttribute(entity: destination.name)
            }
            try object.setValue(child[identification], forAttribute: relationship.foreignKey)
        }
    }

    /// Replaces the links of `object` through the many-to-many `relationship` with links to the
    /// identification values in `json` (an array, or one value; nulls skipped), creating no object.
    private func link(
        _ object: ManagedObject,
        toIdentificationsIn json: JSONValue,
        at keyPath: String,
        through relationship: RelationshipDescription,
        in context: ManagedObjectContext,
        dateFormats: [DateFormat]
    ) throws(MappingError) {
        let destination = try store { () throws(StoreError) -> EntityDescription in
            guard relationship.isManyToMany else {
                throw .notManyToMany(entity: object.entity.name, relationship: relationship.name)
            }
            return try context.entity(named: relationship.destination)
        }
        guard let identification = destination.identificationAttribute,
            let attribute = destination.attribute(named: identification)
        else { throw .store(.noIdentificationAttribute(entity: destination.name)) }
        let elements: [JSONValue]
        if case .array(let array) = json { elements = array } else { elements = [json] }
        var values: [AttributeValue] = []
        for element in elements where !element.isNull {
            do throws(ConversionError) {
                // An object or array is no identification value, even for a text attribute.
                if element.isComposite { throw .cannotConvert(value: element.text, to: attribute.type) }
                values.append(try element.converted(to: attribute.type, dateFormats: dateFormats))
            } catch {
                throw .invalidValue(entity: destination.name, attribute: identification, keyPath: keyPath, error)
            }
        }
        try store { () throws(StoreError) in
            try context.setLinks(from: object, through: relationship.name, toIdentifications: values)
        }
    }

    private func store<T>(_ body: () throws(StoreError) -> T) throws(MappingError) -> T {
        do {
            return try body()
        } catch {
            throw .store(error)
        }
    }
}
