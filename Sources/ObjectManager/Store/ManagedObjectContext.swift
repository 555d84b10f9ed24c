import Diagnostics
import Synchronization

/// A scratch pad of objects over an ``EntityStore``: inserts, updates and deletes stay here until ``save()``.
///
/// Fetches see unsaved inserts and updates and hide unsaved deletes; a saved row is always the same instance.
/// Links of many-to-many relationships are changed here too and saved with the objects (see
/// ``addLink(from:to:through:)``).
///
/// ```swift
/// let context = store.mainContext
/// try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Great"])
/// try context.fetch("Review").count   // 1
/// try store.countSaved("Review")      // 0 until…
/// try context.save()
/// ```
public final class ManagedObjectContext: Sendable {
    struct State {
        /// The identity map: saved objects by entity and rowid.
        var registered: [String: [Int64: ManagedObject]] = [:]
        var inserted: [ManagedObject] = []
        var updated: [ObjectIdentifier: ManagedObject] = [:]
        var deleted: [ObjectIdentifier: ManagedObject] = [:]
        /// Unsaved changes of many-to-many links, by join table name; never holds an empty entry.
        var links: [String: LinkChanges] = [:]

        /// Whether an object of `entity` is inserted, updated or deleted and not saved yet.
        func hasChanges(of entity: String) -> Bool {
            inserted.contains { $0.entity.name == entity } || updated.values.contains { $0.entity.name == entity }
                || deleted.values.contains { $0.entity.name == entity }
        }
    }

    /// The unsaved changes of one join table: pairs to add (not saved yet) and saved pairs to remove.
    struct LinkChanges {
        var added: Set<JoinTable.Pair> = []
        var removed: Set<JoinTable.Pair> = []

        var isEmpty: Bool { added.isEmpty && removed.isEmpty }
        var count: Int { added.count + removed.count }
    }

    /// The model of the store this context works on.
    public var model: EntityModel { persistent.model }
    let persistent: PersistentStore
    let state = Mutex(State())

    init(persistent: PersistentStore) {
        self.persistent = persistent
    }

    /// The description of the entity named `name`, or an error suggesting the nearest names.
    public func entity(named name: String) throws(StoreError) -> EntityDescription {
        guard let entity = model.entity(named: name) else {
            throw .unknownEntity(name, suggestions: Suggestions.nearest(to: name, in: model.entityNames))
        }
        return entity
    }

    /// Inserts a new object of `entity` with `attributes` converted to their types.
    @discardableResult
    public func insert(entity name: String, attributes: [String: AttributeValue] = [:]) throws(StoreError)
        -> ManagedObject
    {
        let object = try ManagedObject(entity: try entity(named: name), attributes: attributes)
        insert(described: object)
        return object
    }

    /// Inserts `object` unless it is already here; an object deleted here but not saved yet comes back.
    public func insert(_ object: ManagedObject) throws(StoreError) {
        _ = try entity(named: object.entity.name)
        insert(described: object)
    }

    /// ``insert(_:)`` of an object made with an entity description this context gave (the mapper's): its
    /// entity is not looked up again.
    func insert(described object: ManagedObject) {
        state.withLock { state in
            let id = ObjectIdentifier(object)
            object.state.withLock { objectState in
                if objectState.context === self {
                    if objectState.isInserted { return }
                    if objectState.rowID != nil {
                        if objectState.isDeleted {
                            objectState.isDeleted = false
                            state.deleted[id] = nil
                            if objectState.values != objectState.committed { state.updated[id] = object }
                        }
                        return
                    }
                }
                objectState.context = self
                objectState.rowID = nil
                objectState.isDeleted = false
                objectState.isInserted = true
                state.inserted.append(object)
            }
        }
    }

    /// The objects of `entity` whose attributes equal `conditions`, saved or not, in row order then insertion order.
    public func fetch(_ entity: String, where conditions: [String: AttributeValue] = [:]) throws(StoreError)
        -> [ManagedObject]
    {
        let description = try self.entity(named: entity)
        let conditions = try Self.converted(conditions, for: description)
        // Reading inside the lock keeps a concurrent save from slipping between the read and the identity map.
        return try state.withLock { (state) throws(StoreError) in
            let registered = state.registered[entity] ?? [:]
            let rows = try persistent.rows(of: description, where: conditions) { registered[$0] != nil }
            var result: [ManagedObject] = []
            // The rows read, for the updated objects they miss: kept only when there are updated objects.
            var seen: Set<Int64> = []
            let keepsSeen = !state.updated.isEmpty
            for row in rows {
                if keepsSeen { seen.insert(row.rowID) }
                let object: ManagedObject
                if let known = registered[row.rowID] {
                    object = known
                } else {
                    object = ManagedObject(entity: description, converted: row.values, rowID: row.rowID, context: self)
                    state.registered[entity, default: [:]][row.rowID] = object
                }
                let id = ObjectIdentifier(object)
                if state.deleted[id] != nil { continue }
                if state.updated[id] != nil, !Self.object(object, matches: conditions) { continue }
                result.append(object)
            }
            let changedElsewhere = state.updated.values
                .filter { $0.entity.name == entity && state.deleted[ObjectIdentifier($0)] == nil }
                .compactMap { object in object.state.withLock { $0.rowID }.map { (object, $0) } }
                .filter { !seen.contains($0.1) && Self.object($0.0, matches: conditions) }
                .sorted { $0.1 < $1.1 }
            result += changedElsewhere.map(\.0)
            result += state.inserted.filter { $0.entity.name == entity && Self.object($0, matches: conditions) }
            return result
        }
    }

    /// How many objects ``fetch(_:where:)`` would return.
    ///
    /// With no unsaved insert, update or delete of `entity`, the store counts its rows: no object is made or
    /// looked up.
    public func count(_ entity: String, where conditions: [String: AttributeValue] = [:]) throws(StoreError) -> Int {
        let description = try self.entity(named: entity)
        let converted = try Self.converted(conditions, for: description)
        let saved = try state.withLock { (state) throws(StoreError) -> Int? in
            guard !state.hasChanges(of: entity) else { return nil }
            return try persistent.count(of: description, where: converted)
        }
        if let saved { return saved }
        return try fetch(entity, where: conditions).count
    }

    /// The object of `entity` whose identification attribute has `value`, if any.
    public func existingObject(entity: String, identifiedBy value: AttributeValue) throws(StoreError) -> ManagedObject?
    {
        let description = try self.entity(named: entity)
        guard let identification = description.identificationAttribute else {
            throw .noIdentificationAttribute(entity: entity)
        }
        return try fetch(entity, where: [identification: value]).first
    }

    /// The objects at the other end of `relationship` of `object`, found through the foreign key, or for a
    /// many-to-many relationship through its links, in the order of ``linkedIdentifications(of:through:)``
    /// (links to objects that are not in the store are skipped).
    public func related(_ object: ManagedObject, _ relationship: String) throws(StoreError) -> [ManagedObject] {
        let description = try Self.relationship(relationship, of: object.entity)
        let destination = try entity(named: description.destination)
        if description.isManyToMany {
            guard let identification = destination.identificationAttribute else {
                throw .noIdentificationAttribute(entity: destination.name)
            }
            var objects: [ManagedObject] = []
            for value in try linkedIdentifications(of: object, through: relationship) {
                if let found = try fetch(destination.name, where: [identification: value]).first {
                    objects.append(found)
                }
            }
            return objects
        }
        if description.isToMany {
            guard let identification = object.entity.identificationAttribute else {
                throw .noIdentificationAttribute(entity: object.entity.name)
            }
            let value = object[identification]
            if value.isNull { return [] }
            return try fetch(destination.name, where: [description.foreignKey: value])
        }
        guard let identification = destination.identificationAttribute else {
            throw .noIdentificationAttribute(entity: destination.name)
        }
        let value = object[description.foreignKey]
        if value.isNull { return [] }
        return try fetch(destination.name, where: [identification: value])
    }

    /// Marks `object` deleted (an unsaved insert is simply dropped); objects of other contexts are ignored.
    /// Its unsaved link changes are dropped, and saving deletes its saved links.
    public func delete(_ object: ManagedObject) {
        state.withLock { state in
            let id = ObjectIdentifier(object)
            object.state.withLock { objectState in
                guard objectState.context === self, !objectState.isDeleted else { return }
                if !state.links.isEmpty, let identification = object.entity.identificationAttribute,
                    let index = object.entity.attributeIndex(named: identification)
                {
                    let values = [objectState.values[index], objectState.committed[index]]
                    dropLinkChanges(of: object.entity.name, values: values, in: &state)
                }
                if objectState.isInserted {
                    state.inserted.removeAll { $0 === object }
                    objectState.isInserted = false
                    objectState.isDeleted = true
                    objectState.context = nil
                } else if objectState.rowID != nil {
                    objectState.isDeleted = true
                    state.updated[id] = nil
                    state.deleted[id] = object
                }
            }
        }
    }

    /// Deletes every object of `entity`; ``save()`` makes it permanent.
    public func deleteAll(_ entity: String) throws(StoreError) {
        for object in try fetch(entity) {
            delete(object)
        }
    }

    /// Deletes every object of every entity; ``save()`` makes it permanent.
    public func deleteAllEntities() throws(StoreError) {
        for entity in model.entityNames {
            try deleteAll(entity)
        }
    }

    /// Whether there are unsaved inserts, updates, deletes or link changes.
    public var hasChanges: Bool {
        state.withLock { !$0.inserted.isEmpty || !$0.updated.isEmpty || !$0.deleted.isEmpty || !$0.links.isEmpty }
    }

    /// The unsaved changes: inserted objects by entity (in first-insert order), how many saved objects
    /// have unsaved updates or deletes, and how many many-to-many links are to be added or removed.
    package var unsavedChanges: (inserted: [(entity: String, count: Int)], updatedOrDeleted: Int, links: Int) {
        state.withLock { state in
            var inserted: [(entity: String, count: Int)] = []
            for object in state.inserted {
                let name = object.entity.name
                if let index = inserted.firstIndex(where: { $0.entity == name }) {
                    inserted[index].count += 1
                } else {
                    inserted.append((name, 1))
                }
            }
            return (inserted, state.updated.count + state.deleted.count, state.links.values.reduce(0) { $0 + $1.count })
        }
    }

    /// Writes every insert, update, delete and link change in one transaction; on failure nothing is written
    /// and the changes stay. A deleted object's links are deleted with it.
    public func save() throws(StoreError) {
        try state.withLock { (state) throws(StoreError) in
            let inserted = state.inserted.map { object in (object, object.state.withLock { $0.values }) }
            let updated = state.updated.values.compactMap { object in
                object.state.withLock { s in s.rowID.map { (object, $0, s.values, s.committed) } }
            }
            let deleted = state.deleted.values.compactMap { object in
                object.state.withLock { $0.rowID }.map { (object, $0) }
            }
            for (object, values) in inserted {
                try Self.checkRequired(values, of: object.entity)
            }
            for (object, _, values, _) in updated {
                try Self.checkRequired(values, of: object.entity)
            }
            var changes: [PersistentStore.Change] = deleted.map { .delete(entity: $0.0.entity.name, rowID: $0.1) }
            changes += deleted.flatMap { object, _ in unlinkAll(object) }
            changes += updated.map { object, rowID, values, committed in
                var changed: [String: AttributeValue] = [:]
                for (index, attribute) in object.entity.attributes.enumerated()
                where index < values.count && (index >= committed.count || committed[index] != values[index]) {
                    changed[attribute.name] = values[index]
                }
                return .update(entity: object.entity.name, rowID: rowID, values: changed)
            }
            changes += linkChanges(state.links)
            // Inserts last: the rowids of their changes are the last ones returned.
            changes += inserted.map { object, values in
                .insert(entity: object.entity.name, attributes: object.entity.attributes, values: values)
            }
            let rowIDs = try persistent.apply(changes)
            state.links = [:]

            for (object, rowID) in deleted {
                state.registered[object.entity.name]?[rowID] = nil
                object.state.withLock {
                    $0.rowID = nil
                    $0.context = nil
                }
            }
            // An object changed on another thread while this save was writing keeps its newer values
            // as an update for the next save, rather than losing them.
            var changedMeanwhile: [ObjectIdentifier: ManagedObject] = [:]
            for (object, _, values, _) in updated {
                let changed = object.state.withLock { objectState -> Bool in
                    objectState.committed = values
                    return objectState.values != values
                }
                if changed { changedMeanwhile[ObjectIdentifier(object)] = object }
            }
            // Each entity's identity map taken out while its inserts go in (a payload's are consecutive): its
            // name hashed once a run, the map grown once.
            var registering: (entity: String, objects: [Int64: ManagedObject])?
            for ((object, values), rowID) in zip(inserted, rowIDs.suffix(inserted.count)) {
                guard let rowID else { continue }
                let entity = object.entity.name
                if registering?.entity != entity {
                    if let done = registering { state.registered[done.entity] = done.objects }
                    var objects = state.registered.removeValue(forKey: entity) ?? [:]
                    objects.reserveCapacity(objects.count + inserted.count)
                    registering = (entity, objects)
                }
                registering?.objects[rowID] = object
                let changed = object.state.withLock { objectState -> Bool in
                    objectState.rowID = rowID
                    objectState.isInserted = false
                    objectState.committed = values
                    return objectState.values != values
                }
                if changed { changedMeanwhile[ObjectIdentifier(object)] = object }
            }
            if let done = registering { state.registered[done.entity] = done.objects }
            state.inserted = []
            state.updated = changedMeanwhile
            state.deleted = [:]
        }
    }

    /// Forgets every unsaved change: inserts leave the context, updates are reverted, deletes undone.
    public func rollback() {
        state.withLock { state in
            for object in state.inserted {
                object.state.withLock {
                    $0.isInserted = false
                    $0.context = nil
                }
            }
            for object in state.updated.values {
                object.state.withLock { $0.values = $0.committed }
            }
            for object in state.deleted.values {
                object.state.withLock {
                    $0.isDeleted = false
                    $0.values = $0.committed
                }
            }
            state = State(registered: state.registered)
        }
    }

    /// Forgets every object: registered, inserted, updated and deleted ones leave the context, unsaved
    /// changes are dropped. Objects fetched before are no longer this context's.
    public func reset() {
        state.withLock { state in
            let objects =
                state.registered.values.flatMap(\.values) + state.inserted + Array(state.updated.values)
                + Array(state.deleted.values)
            for object in objects {
                object.state.withLock { objectState in
                    if objectState.context === self { objectState.context = nil }
                }
            }
            state = State()
        }
    }

    func markUpdated(_ object: ManagedObject) {
        state.withLock { state in
            let id = ObjectIdentifier(object)
            guard state.deleted[id] == nil, object.context === self else { return }
            state.updated[id] = object
        }
    }

    /// The relationship named `name` of `entity`, or an error suggesting the nearest names.
    static func relationship(_ name: String, of entity: EntityDescription) throws(StoreError) -> RelationshipDescription
    {
        guard let relationship = entity.relationship(named: name) else {
            throw .unknownRelationship(
                entity: entity.name,
                relationship: name,
                suggestions: Suggestions.nearest(to: name, in: entity.relationships.map(\.name))
            )
        }
        return relationship
    }

    static func converted(_ conditions: [String: AttributeValue], for entity: EntityDescription) throws(StoreError)
        -> [String: AttributeValue]
    {
        var result: [String: AttributeValue] = [:]
        for (name, value) in conditions {
            guard let attribute = entity.attribute(named: name) else {
                throw .unknownAttribute(
                    entity: entity.name,
                    attribute: name,
                    suggestions: Suggestions.nearest(to: name, in: entity.attributeNames)
                )
            }
            do {
                result[name] = try value.converted(to: attribute.type)
            } catch {
                throw .invalidValue(entity: entity.name, attribute: name, error)
            }
        }
        return result
    }

    private static func object(_ object: ManagedObject, matches conditions: [String: AttributeValue]) -> Bool {
        let values = object.values
        return conditions.allSatisfy { name, value in
            (object.entity.attributeIndex(named: name).map { values[$0] } ?? .null) == value
        }
    }

    /// Throws for the first non-optional attribute whose value (by position) is null.
    private static func checkRequired(_ values: [AttributeValue], of entity: EntityDescription) throws(StoreError) {
        for (index, attribute) in entity.attributes.enumerated()
        where !attribute.isOptional && (index < values.count ? values[index] : .null).isNull {
            throw .missingValue(entity: entity.name, attribute: attribute.name)
        }
    }
}
