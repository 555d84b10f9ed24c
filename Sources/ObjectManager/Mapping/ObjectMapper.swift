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
            return [try map(object: members, with: mapping, in: context, onto: target, index: &index)]
        case .array(let elements):
            // One query for the whole payload instead of one per object: index the objects the context
            // already has by identification value, and add each new one as it is inserted.
            var index = try identityIndex(for: mapping, in: context, size: elements.count)
            var result: [ManagedObject] = []
            for (offset, element) in elements.enumerated() {
                guard case .object(let members) = element else {
                    throw .notAnObject(entity: mapping.entity, found: element.text)
                }
                result.append(
                    try map(
                        object: members,
                        with: mapping,
                        in: context,
                        onto: offset == 0 ? target : nil,
                        index: &index
                    )
                )
            }
            return result
        default:
            throw .notAnObject(entity: mapping.entity, found: json.text)
        }
    }

    private func map(
        object members: [String: JSONValue],
        with mapping: EntityMapping,
        in context: ManagedObjectContext,
        onto target: ManagedObject?,
        index: inout IdentityIndex?
    ) throws(MappingError) -> ManagedObject {
        let json = JSONValue.object(members)
        let entity = try store { () throws(StoreError) -> EntityDescription in try context.entity(named: mapping.entity)
        }
        /// A plain key is a member; only a dotted key path needs the walk.
        func source(_ keyPath: String) -> JSONValue? {
            keyPath.utf8.contains(UInt8(ascii: ".")) ? json[keyPath: keyPath] : members[keyPath]
        }

        var values: [(attribute: String, position: Int, value: AttributeValue)] = []
        for attributeMapping in mapping.attributeMappings {
            guard let source = source(attributeMapping.keyPath) else { continue }
            guard let position = entity.attributeIndex(named: attributeMapping.attribute) else {
                throw .store(
                    .unknownAttribute(
                        entity: entity.name,
                        attribute: attributeMapping.attribute,
                        suggestions: Suggestions.nearest(to: attributeMapping.attribute, in: entity.attributeNames)
                    )
                )
            }
            let attribute = entity.attributes[position]
            do {
                values.append(
                    (
                        attribute.name, position,
                        try source.converted(to: attribute.type, dateFormats: mapping.dateFormats)
                    )
                )
            } catch {
                throw .invalidValue(
                    entity: entity.name,
                    attribute: attribute.name,
                    keyPath: attributeMapping.keyPath,
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
            let identification =
                mapping.identificationAttributes ?? entity.identificationAttribute.map { [$0] } ?? []
            var conditions: [String: AttributeValue] = [:]
            for name in identification {
                guard let value = values.last(where: { $0.attribute == name })?.value, !value.isNull else {
                    conditions = [:]
                    break
                }
                conditions[name] = value
            }
            if let index, conditions.count == 1, let key = conditions[index.attribute] {
                if let existing = index.objects[key] { return existing }
            } else if !conditions.isEmpty, let existing = try context.fetch(entity.name, where: conditions).first {
                return existing
            }
            // A new object gets every value at once, by position, already converted (the last one for an
            // attribute mapped twice).
            inserted = true
            var positional = [AttributeValue](repeating: .null, count: entity.attributes.count)
            for (_, position, value) in values { positional[position] = value }
            let object = ManagedObject(entity: entity, converted: positional, rowID: nil, context: nil)
            try context.insert(object)
            return object
        }
        if !inserted {
            for (_, position, value) in values { object.setConverted(value, at: position) }
        }
        if let attribute = index?.attribute, !object[attribute].isNull {
            index?.objects[object[attribute]] = object
        }

        for relationshipMapping in mapping.relationshipMappings {
            guard let nested = source(relationshipMapping.keyPath), !nested.isNull else { continue }
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
                    dateFormats: mapping.dateFormats
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

    /// The objects a context has for an entity, by their (single) identification value.
    struct IdentityIndex {
        var attribute: String
        var objects: [AttributeValue: ManagedObject]
    }

    /// An index for mapping `size` objects, when the mapping identifies by one attribute and there are
    /// enough objects to make one query cheaper than a query per object.
    private func identityIndex(
        for mapping: EntityMapping,
        in context: ManagedObjectContext,
        size: Int
    ) throws(MappingError) -> IdentityIndex? {
        guard size > 1 else { return nil }
        return try store { () throws(StoreError) -> IdentityIndex? in
            let entity = try context.entity(named: mapping.entity)
            let identification = mapping.identificationAttributes ?? entity.identificationAttribute.map { [$0] } ?? []
            guard identification.count == 1, let attribute = identification.first else { return nil }
            var objects: [AttributeValue: ManagedObject] = [:]
            for object in try context.fetch(entity.name) where !object[attribute].isNull {
                objects[object[attribute]] = objects[object[attribute]] ?? object
            }
            return IdentityIndex(attribute: attribute, objects: objects)
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
