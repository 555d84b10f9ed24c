public import Foundation
import Synchronization

/// A SQLite-backed store of entities (GRDB): one table per entity, a main context for changes, direct reads of what is saved.
///
/// ```swift
/// let store = try EntityStore(model: model)               // in memory
/// try store.mainContext.insert(entity: "Review", attributes: ["reviewID": 1])
/// try store.mainContext.save()
/// try store.fetchSaved("Review")                          // [["reviewID": .integer(1), …]]
/// try store.backup(to: URL(filePath: "/tmp/reviews.sqlite"))
/// ```
public final class EntityStore: Sendable {
    /// Where the SQLite database lives.
    public enum Location: Sendable, Hashable {
        /// An SQLite database in memory, gone with the store.
        case inMemory
        /// An SQLite database file at this URL.
        case file(URL)
    }

    /// The validated schema.
    public let model: EntityModel
    /// Where the database lives.
    public let location: Location
    /// The context changes are made in and saved from.
    public let mainContext: ManagedObjectContext
    private let persistent: PersistentStore

    /// Opens (or creates) a store for `model`, creating a table per entity and a ``JoinTable`` per
    /// many-to-many relationship when missing.
    public init(model: EntityModel, location: Location = .inMemory) throws(StoreError) {
        self.model = model
        self.location = location
        switch location {
        case .inMemory: persistent = try PersistentStore(model: model, path: nil)
        case .file(let url): persistent = try PersistentStore(model: model, path: url.path)
        }
        mainContext = ManagedObjectContext(persistent: persistent)
    }

    /// A new context over the same database, independent of ``mainContext``.
    public func newContext() -> ManagedObjectContext {
        ManagedObjectContext(persistent: persistent)
    }

    /// Deletes every saved row of every entity and join table in one transaction and resets the main context: the
    /// store is then as empty as a new one (rowids start again at 1), without opening a new database.
    public func removeAll() throws(StoreError) {
        try persistent.removeAll()
        mainContext.reset()
    }

    /// Copies the saved contents into a SQLite file at `url` (readable with `sqlite3`).
    public func backup(to url: URL) throws(StoreError) {
        try persistent.backup(toPath: url.path)
    }

    /// The saved rows of `entity` matching `conditions`, read straight from the database (unsaved changes ignored).
    public func fetchSaved(_ entity: String, where conditions: [String: AttributeValue] = [:]) throws(StoreError)
        -> [[String: AttributeValue]]
    {
        let description = try mainContext.entity(named: entity)
        let conditions = try ManagedObjectContext.converted(conditions, for: description)
        return try persistent.rows(of: description, where: conditions).map { description.named($0.values) }
    }

    /// How many saved rows of `entity` match `conditions`, read straight from the database.
    public func countSaved(_ entity: String, where conditions: [String: AttributeValue] = [:]) throws(StoreError) -> Int
    {
        let description = try mainContext.entity(named: entity)
        let conditions = try ManagedObjectContext.converted(conditions, for: description)
        return try persistent.count(of: description, where: conditions)
    }

    /// How many saved rows each entity, then each join table, has, in model order, those without rows left
    /// out; one query.
    package func savedRowCounts() throws(StoreError) -> [(entity: String, count: Int)] {
        try persistent.rowCounts().filter { $0.count > 0 }
    }

    private static let shared = Mutex<EntityStore?>(nil)

    /// The store shared by the object manager and steps; replaceable, and resettable to nil.
    public static var defaultStore: EntityStore? {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }
}
