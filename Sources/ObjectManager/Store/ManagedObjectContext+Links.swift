extension ManagedObjectContext {
    // MARK: Many-to-many links

    /// The identification values `object` is linked to through the many-to-many `relationship`, saved or
    /// not, in ascending order (numbers by value, text by code points): `[7, 9]` for a book's authors.
    ///
    /// Links are pairs of identification values, like foreign keys: a link may name an object that is not
    /// in the store (linked by an ID array before the object arrived); ``related(_:_:)`` skips those.
    /// An object without an identification value has no links.
    ///
    /// ```swift
    /// try context.addLink(from: book, to: author, through: "authors")
    /// try context.linkedIdentifications(of: book, through: "authors")   // [.integer(7)]
    /// try context.linkedIdentifications(of: author, through: "books")   // the inverse: [.integer(1)]
    /// ```
    public func linkedIdentifications(of object: ManagedObject, through relationship: String) throws(StoreError)
        -> [AttributeValue]
    {
        let (use, _) = try joinTableUse(of: object, relationship)
        guard let own = object.identification, !own.isNull else { return [] }
        return try state.withLock { (state) throws(StoreError) in
            try currentLinks(use, own: own, state: state).sorted(by: Self.ascending)
        }
    }

    /// Links `object` to `destination` through the many-to-many `relationship` (nothing when they are
    /// linked); ``save()`` writes the link. Both need an identification value.
    public func addLink(from object: ManagedObject, to destination: ManagedObject, through relationship: String)
        throws(StoreError)
    {
        let (use, description) = try joinTableUse(of: object, relationship)
        let value = try Self.identification(of: destination, for: description, of: object.entity)
        try changeLinks(use, of: object) { $0.insert(value) }
    }

    /// Unlinks `object` from `destination` (nothing when they are not linked); ``save()`` deletes the link.
    public func removeLink(from object: ManagedObject, to destination: ManagedObject, through relationship: String)
        throws(StoreError)
    {
        let (use, description) = try joinTableUse(of: object, relationship)
        let value = try Self.identification(of: destination, for: description, of: object.entity)
        try changeLinks(use, of: object) { $0.remove(value) }
    }

    /// Replaces the links of `object` through `relationship` with links to `destinations`: afterwards it is
    /// linked to exactly those objects (what mapping an array onto the relationship does).
    public func setLinks(from object: ManagedObject, through relationship: String, to destinations: [ManagedObject])
        throws(StoreError)
    {
        let (use, description) = try joinTableUse(of: object, relationship)
        var values: Set<AttributeValue> = []
        for destination in destinations {
            values.insert(try Self.identification(of: destination, for: description, of: object.entity))
        }
        try changeLinks(use, of: object) { $0 = values }
    }

    /// Replaces the links of `object` through `relationship` with links to the objects identified by
    /// `values` (converted to the destination's identification type), whether or not they are in the store.
    ///
    /// ```swift
    /// try context.setLinks(from: book, through: "authors", toIdentifications: [7, 9])
    /// try context.save()
    /// ```
    public func setLinks(
        from object: ManagedObject,
        through relationship: String,
        toIdentifications values: [AttributeValue]
    ) throws(StoreError) {
        let (use, description) = try joinTableUse(of: object, relationship)
        let destination = try entity(named: description.destination)
        guard let identification = destination.identificationAttribute else {
            throw .noIdentificationAttribute(entity: destination.name)
        }
        var converted: Set<AttributeValue> = []
        for value in values {
            let typed: AttributeValue
            do {
                typed = try value.converted(to: use.otherType)
            } catch {
                throw .invalidValue(entity: destination.name, attribute: identification, error)
            }
            guard !typed.isNull else { throw .missingValue(entity: destination.name, attribute: identification) }
            converted.insert(typed)
        }
        try changeLinks(use, of: object) { [converted] in $0 = converted }
    }

    // MARK: Internals of links

    /// The join table a many-to-many relationship of `object` reads, or why there is none.
    private func joinTableUse(of object: ManagedObject, _ name: String) throws(StoreError)
        -> (JoinTable.Use, RelationshipDescription)
    {
        let relationship = try Self.relationship(name, of: object.entity)
        guard let use = model.joinTableUse(of: object.entity.name, relationship) else {
            throw .notManyToMany(entity: object.entity.name, relationship: name)
        }
        return (use, relationship)
    }

    /// Sets the linked values of `object` to what `change` makes of the current ones, recording only the
    /// difference from what is saved: adding a saved link or removing an unsaved one leaves no change.
    private func changeLinks(
        _ use: JoinTable.Use,
        of object: ManagedObject,
        _ change: (inout Set<AttributeValue>) -> Void
    ) throws(StoreError) {
        let own = try Self.identification(of: object)
        try state.withLock { (state) throws(StoreError) in
            let saved = Set(try persistent.links(use, of: own))
            let current = Set(try currentLinks(use, own: own, state: state, saved: Array(saved)))
            var wanted = current
            change(&wanted)
            var changes = state.links[use.table.name] ?? LinkChanges()
            for value in current.subtracting(wanted) {
                let pair = use.pair(own: own, other: value)
                changes.added.remove(pair)
                if saved.contains(value) { changes.removed.insert(pair) }
            }
            for value in wanted.subtracting(current) {
                let pair = use.pair(own: own, other: value)
                changes.removed.remove(pair)
                if !saved.contains(value) { changes.added.insert(pair) }
            }
            state.links[use.table.name] = changes.isEmpty ? nil : changes
        }
    }

    /// The saved links of `own` (read unless given) with the unsaved changes applied, without duplicates.
    private func currentLinks(
        _ use: JoinTable.Use,
        own: AttributeValue,
        state: State,
        saved: [AttributeValue]? = nil
    ) throws(StoreError) -> [AttributeValue] {
        let saved = if let saved { saved } else { try persistent.links(use, of: own) }
        guard let changes = state.links[use.table.name] else { return saved }
        var seen: Set<AttributeValue> = []
        var values: [AttributeValue] = []
        for value in saved where !changes.removed.contains(use.pair(own: own, other: value)) {
            if seen.insert(value).inserted { values.append(value) }
        }
        for pair in changes.added where pair.value(in: use.ownColumn) == own {
            let value = pair.value(in: use.otherColumn)
            if seen.insert(value).inserted { values.append(value) }
        }
        return values
    }

    /// Forgets the unsaved link changes of an object of `entity` identified by any of `values` (it is
    /// being deleted: saving deletes its saved links).
    func dropLinkChanges(of entity: String, values: [AttributeValue], in state: inout State) {
        let values = Set(values.filter { !$0.isNull })
        guard !values.isEmpty else { return }
        for (table, column) in participations(of: entity) {
            guard var changes = state.links[table] else { continue }
            changes.added = changes.added.filter { !values.contains($0.value(in: column)) }
            changes.removed = changes.removed.filter { !values.contains($0.value(in: column)) }
            state.links[table] = changes.isEmpty ? nil : changes
        }
    }

    /// The changes that delete every saved link of a deleted object (by its saved identification value).
    func unlinkAll(_ object: ManagedObject) -> [PersistentStore.Change] {
        guard !model.joinTables.isEmpty, let identification = object.entity.identificationAttribute else { return [] }
        let index = object.entity.attributeIndex(named: identification)
        let value = index.map { index in object.state.withLock { $0.committed[index] } } ?? .null
        guard !value.isNull else { return [] }
        return participations(of: object.entity.name).map {
            .unlinkAll(table: $0.table, column: $0.column, value: value)
        }
    }

    /// The changes that write the unsaved link changes: removals, then additions, in a stable order.
    func linkChanges(_ links: [String: LinkChanges]) -> [PersistentStore.Change] {
        let tables = links.sorted { $0.key < $1.key }
        let order = { (lhs: JoinTable.Pair, rhs: JoinTable.Pair) in
            lhs.source == rhs.source
                ? Self.ascending(lhs.destination, rhs.destination) : Self.ascending(lhs.source, rhs.source)
        }
        var result: [PersistentStore.Change] = []
        for (table, changes) in tables {
            result += changes.removed.sorted(by: order).map { .unlink(table: table, $0) }
        }
        for (table, changes) in tables {
            result += changes.added.sorted(by: order).map { .link(table: table, $0) }
        }
        return result
    }

    /// The join tables whose rows name objects of `entity`, and the column that does (both for a
    /// relationship of an entity to itself).
    private func participations(of entity: String) -> [(table: String, column: String)] {
        model.joinTables.flatMap { table in
            (table.entity == entity ? [(table.name, JoinTable.sourceColumn)] : [])
                + (table.destination == entity ? [(table.name, JoinTable.destinationColumn)] : [])
        }
    }

    /// The identification value of `object`, which a link needs.
    private static func identification(of object: ManagedObject) throws(StoreError) -> AttributeValue {
        guard let attribute = object.entity.identificationAttribute else {
            throw .noIdentificationAttribute(entity: object.entity.name)
        }
        let value = object[attribute]
        guard !value.isNull else { throw .missingValue(entity: object.entity.name, attribute: attribute) }
        return value
    }

    /// The identification value of `destination`, an object of the relationship's destination entity.
    private static func identification(
        of destination: ManagedObject,
        for relationship: RelationshipDescription,
        of entity: EntityDescription
    ) throws(StoreError) -> AttributeValue {
        guard destination.entity.name == relationship.destination else {
            throw .wrongDestination(
                entity: entity.name,
                relationship: relationship.name,
                destination: relationship.destination,
                found: destination.entity.name
            )
        }
        return try identification(of: destination)
    }

    /// The order of linked values: numbers and dates by value, anything else by its text.
    static func ascending(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let left), .integer(let right)): left < right
        case (.double(let left), .double(let right)): left < right
        case (.date(let left), .date(let right)): left < right
        default: (lhs.stringValue ?? "") < (rhs.stringValue ?? "")
        }
    }
}
