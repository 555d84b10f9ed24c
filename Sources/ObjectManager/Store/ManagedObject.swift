import Diagnostics
import Synchronization

/// One object of an entity: attribute values, saved or not, living in a ``ManagedObjectContext``.
///
/// Objects are equal only to themselves; a context hands out one instance per saved row.
///
/// ```swift
/// let review = try store.mainContext.insert(entity: "Review", attributes: ["title": "Great"])
/// review["rating"] = "5"          // converted to the attribute's type: .integer(5)
/// review.value(forKeyPath: "restaurant.name")
/// book.value(forKeyPath: "authors.count")   // a many-to-many relationship's links
/// ```
public final class ManagedObject: Sendable, Hashable {
    /// The values are kept by attribute position (`entity.attributes`' order), not by name: a fetch or a
    /// save moves arrays, and the names are looked up only where a caller speaks in names (DECISIONS 170).
    struct State {
        var values: [AttributeValue]
        var committed: [AttributeValue]
        var rowID: Int64?
        var isInserted = false
        var isDeleted = false
        weak var context: ManagedObjectContext?
    }

    /// The entity of this object.
    public let entity: EntityDescription
    let state: Mutex<State>

    /// A new object of `entity` that belongs to no context yet; insert it with ``ManagedObjectContext/insert(_:)``.
    public convenience init(entity: EntityDescription, attributes: [String: AttributeValue] = [:]) throws(StoreError) {
        self.init(entity: entity, converted: [], rowID: nil, context: nil)
        for (name, value) in attributes {
            try setValue(value, forAttribute: name)
        }
    }

    /// An object with `values` by attribute position, already converted (a row read from the store); missing
    /// trailing values are null.
    init(entity: EntityDescription, converted values: [AttributeValue], rowID: Int64?, context: ManagedObjectContext?) {
        self.entity = entity
        var complete = values
        if complete.count < entity.attributes.count {
            complete += repeatElement(.null, count: entity.attributes.count - complete.count)
        }
        state = Mutex(State(values: complete, committed: complete, rowID: rowID, context: context))
    }

    /// Every attribute's value (`.null` for unset ones).
    public var attributes: [String: AttributeValue] {
        entity.named(state.withLock { $0.values })
    }

    /// The values by attribute position (`entity.attributes`' order).
    var values: [AttributeValue] {
        state.withLock { $0.values }
    }

    /// The value of `attribute` (`.null` when unset or unknown); setting converts to the attribute's type and
    /// ignores values that do not convert — use ``setValue(_:forAttribute:)`` to get the error.
    public subscript(_ attribute: String) -> AttributeValue {
        get {
            guard let index = entity.attributeIndex(named: attribute) else { return .null }
            return state.withLock { $0.values[index] }
        }
        set { try? setValue(newValue, forAttribute: attribute) }
    }

    /// Sets `attribute` to `value` converted to the attribute's type.
    public func setValue(_ value: AttributeValue, forAttribute attribute: String) throws(StoreError) {
        guard let index = entity.attributeIndex(named: attribute) else {
            throw .unknownAttribute(
                entity: entity.name,
                attribute: attribute,
                suggestions: Suggestions.nearest(to: attribute, in: entity.attributeNames)
            )
        }
        let converted: AttributeValue
        do {
            converted = try value.converted(to: entity.attributes[index].type)
        } catch {
            throw .invalidValue(entity: entity.name, attribute: attribute, error)
        }
        setConverted(converted, at: index)
    }

    /// The value of the attribute at `position` of `entity.attributes`.
    func value(at position: Int) -> AttributeValue {
        state.withLock { $0.values[position] }
    }

    /// Sets the attribute at `position` of `entity.attributes` to `value`, already converted to its type
    /// (the mapper's values).
    func setConverted(_ value: AttributeValue, at position: Int) {
        let context = state.withLock { state -> ManagedObjectContext? in
            guard state.values[position] != value else { return nil }
            state.values[position] = value
            return state.rowID != nil && !state.isInserted && !state.isDeleted ? state.context : nil
        }
        context?.markUpdated(self)
    }

    /// The value at a key path: an attribute, a path into a JSON attribute, or through to-one relationships
    /// (`restaurant.name`); to-many relationships give a JSON array of the objects or of their values at
    /// the rest of the path (`reviews.title`). A many-to-many relationship alone gives the linked
    /// identification values joined by ", " in ascending order (`authors` → `"7, 9"`, `""` when none).
    /// `count` after a to-many or many-to-many relationship is how many objects (how many links) it has
    /// (`authors.count` → `2`), unless the destination has an attribute or relationship named `count`.
    /// Nil when the path leads nowhere.
    ///
    /// ```swift
    /// book.value(forKeyPath: "authors")        // .string("7, 9"): `${book.authors}` in a scenario
    /// book.value(forKeyPath: "authors.count")  // .integer(2)
    /// book.value(forKeyPath: "authors.name")   // .json(["Ann", "Bo"])
    /// ```
    public func value(forKeyPath keyPath: String) -> AttributeValue? {
        let parts = keyPath.split(ascii: UInt8(ascii: "."), maxSplits: 1).map(String.init)
        guard let head = parts.first else { return nil }
        let rest = parts.count > 1 ? parts[1] : nil
        if entity.attribute(named: head) != nil {
            let value = self[head]
            guard let rest else { return value }
            guard case .json(let json) = value, let inner = json[keyPath: rest] else { return nil }
            return AttributeValue(inner)
        }
        guard let relationship = entity.relationship(named: head), let context else { return nil }
        let countsObjects =
            rest == "count"
            && context.model.entity(named: relationship.destination).map {
                $0.attribute(named: "count") == nil && $0.relationship(named: "count") == nil
            } ?? false
        if relationship.isManyToMany, rest == nil || countsObjects {
            guard let values = try? context.linkedIdentifications(of: self, through: head) else { return nil }
            if countsObjects { return .integer(values.count) }
            return .string(values.compactMap(\.stringValue).joined(separator: ", "))
        }
        guard let related = try? context.related(self, relationship.name) else { return nil }
        if relationship.isToMany {
            if countsObjects { return .integer(related.count) }
            let values = related.map { object in
                rest.map { object.value(forKeyPath: $0) ?? .null } ?? .json(object.json)
            }
            return .json(.array(values.map(\.jsonValue)))
        }
        guard let object = related.first else { return .null }
        guard let rest else { return .json(object.json) }
        return object.value(forKeyPath: rest)
    }

    /// The attributes as a JSON object.
    public var json: JSONValue {
        .object(attributes.mapValues(\.jsonValue))
    }

    /// The context this object lives in, if any.
    public var context: ManagedObjectContext? {
        state.withLock { $0.context }
    }

    /// Whether this object was inserted and not saved yet.
    public var isInserted: Bool {
        state.withLock { $0.isInserted }
    }

    /// Whether this object was deleted (saved or not).
    public var isDeleted: Bool {
        state.withLock { $0.isDeleted }
    }

    /// Whether this object has a row in the store.
    public var isSaved: Bool {
        state.withLock { $0.rowID != nil && !$0.isInserted }
    }

    /// The value of the entity's identification attribute, if it has one.
    public var identification: AttributeValue? {
        entity.identificationAttribute.map { self[$0] }
    }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension ManagedObject: CustomStringConvertible {
    public var description: String {
        "<\(entity.name) \(json.text)>"
    }
}
