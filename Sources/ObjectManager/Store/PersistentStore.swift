import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The SQLite side of an ``EntityStore``: one table per entity and one per many-to-many relationship (its
/// ``JoinTable``), read and written in scoped GRDB closures.
final class PersistentStore: Sendable {
    /// A saved row: its SQLite rowid and attribute values, by the position of the attributes read.
    struct SavedRow: Sendable {
        var rowID: Int64
        var values: [AttributeValue]
    }

    /// One change of a save, applied in a single transaction.
    enum Change: Sendable {
        /// An object's values by the position of `attributes` (its entity description's): bound in order when
        /// those are the model's own (the statement made once), else by name.
        case insert(entity: String, attributes: [AttributeDescription], values: [AttributeValue])
        case update(entity: String, rowID: Int64, values: [String: AttributeValue])
        case delete(entity: String, rowID: Int64)
        /// Adds a join table row (nothing when it is there).
        case link(table: String, JoinTable.Pair)
        /// Removes a join table row (nothing when it is not there).
        case unlink(table: String, JoinTable.Pair)
        /// Removes every row of a join table whose `column` holds `value`: the links of a deleted object.
        case unlinkAll(table: String, column: String, value: AttributeValue)
    }

    /// An entity's statements, their text made once: a save or fetch does not build SQL again.
    struct EntityStatements: Sendable {
        /// The attributes the statements name, in the model's order.
        var attributes: [AttributeDescription]
        /// `SELECT rowid, <every attribute> FROM <table>`, to which a WHERE clause and the order are added.
        var select: String
        /// `SELECT COUNT(*) FROM <table>`.
        var count: String
        /// The INSERT of every attribute column: saved objects carry a value (maybe null) for every
        /// attribute, so the statement is the same for every insert.
        var insert: String
        /// The INSERT prepared, once, on the store's connection (``Prepared``).
        let preparedInsert = Prepared()
        /// `SELECT max(rowid) FROM <table>`: after it, the rowids of rows inserted together.
        var largestRowID: String
        /// `INSERT INTO <table> (rowid, <every attribute>) VALUES (…), (…)`, by row count, each prepared once.
        let preparedRows = PreparedRows()
        /// How many rows one INSERT of ``preparedRows`` holds at most: 32, fewer for wide tables (SQLite's
        /// oldest limit on parameters, 999, is never passed).
        var rowsPerInsert: Int
        private let table: String
        private let columns: [String]

        init(_ entity: EntityDescription) {
            attributes = entity.attributes
            let columns = entity.attributes.map { quote($0.name) }
            table = quote(entity.name)
            self.columns = columns
            select = "SELECT " + (["rowid"] + columns).joined(separator: ", ") + " FROM \(table)"
            count = "SELECT COUNT(*) FROM \(table)"
            insert = PersistentStore.insertSQL(entity.name, columns: entity.attributes.map(\.name))
            largestRowID = "SELECT max(rowid) FROM \(table)"
            rowsPerInsert = max(1, min(32, 999 / (columns.count + 1)))
        }

        /// The INSERT of `rows` rows, each with its rowid first.
        func insertRowsSQL(_ rows: Int) -> String {
            let row = "(" + Array(repeating: "?", count: columns.count + 1).joined(separator: ", ") + ")"
            return "INSERT INTO \(table) (rowid, \(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", ")
        }
    }

    /// ``EntityStatements/insertRowsSQL(_:)`` statements by row count, each prepared the first time it runs
    /// and kept; touched only inside the database queue's closures (hence `@unchecked`, as ``Prepared``).
    final class PreparedRows: @unchecked Sendable {
        private var statements: [Int: Statement] = [:]

        func statement(rows: Int, of entity: EntityStatements, in db: Database) throws -> Statement {
            if let statement = statements[rows] { return statement }
            let made = try db.makeStatement(sql: entity.insertRowsSQL(rows))
            made.setUncheckedArguments(StatementArguments())
            statements[rows] = made
            return made
        }
    }

    /// A statement prepared on the store's connection the first time it runs, and kept: GRDB's statement
    /// cache finds a statement by hashing its whole SQL text, which an insert of every object paid. Touched
    /// only inside the database queue's closures, which the queue serializes (hence `@unchecked`).
    final class Prepared: @unchecked Sendable {
        private var statement: Statement?

        /// The statement of `sql` on `db`, its values bound by position (``PersistentStore/bind(_:to:in:)``).
        func statement(_ sql: String, in db: Database) throws -> Statement {
            if let statement { return statement }
            let made = try db.makeStatement(sql: sql)
            // Arguments are taken as bound from now on: each run binds every parameter itself.
            made.setUncheckedArguments(StatementArguments())
            statement = made
            return made
        }
    }

    let model: EntityModel
    private let database: DatabaseQueue
    /// The model's entities' statements, by entity name.
    private let statements: [String: EntityStatements]
    /// Every table: the entities', then the join tables', in model order.
    private let tables: [String]
    /// The tables that may hold rows: every one of a store opened from a file, else those added to since
    /// `removeAll()` emptied them (set inside the transactions, which the queue serializes). Lets
    /// `removeAll()` — every scenario's tear-down — delete from those only, `rowCounts()` — a leak check
    /// after every scenario — skip its query when there are none, and a read of a table not among them
    /// answer without one (``hasNoRows(_:)``).
    private let tablesWithRows: Mutex<Set<String>>

    init(model: EntityModel, path: String?) throws(StoreError) {
        self.model = model
        statements = Dictionary(
            model.entities.map { ($0.name, EntityStatements($0)) },
            uniquingKeysWith: { first, _ in first }
        )
        tables = model.entities.map(\.name) + model.joinTables.map(\.name)
        tablesWithRows = Mutex(path != nil ? Set(tables) : [])
        do {
            database = try path.map { try DatabaseQueue(path: $0) } ?? DatabaseQueue()
            if path == nil {
                // A memory store's deleted rows are nowhere to be read back: overwriting them with zeros
                // (a SQLite built with SECURE_DELETE, as Debian's is) only costs every tear-down.
                try database.inDatabase { db in try db.execute(sql: "PRAGMA secure_delete = OFF") }
            }
            try database.write { db in
                for entity in model.entities {
                    try db.execute(sql: Self.createTableSQL(for: entity))
                }
                for table in model.joinTables {
                    try db.execute(sql: Self.createJoinTableSQL(for: table))
                }
            }
        } catch {
            throw .database(String(describing: error))
        }
    }

    /// The rows of `entity` whose attributes equal `conditions` (already converted to the attribute types), in rowid order.
    /// The values of rows for which `isKnown` holds are not decoded (left empty): the caller has them.
    func rows(
        of entity: EntityDescription,
        where conditions: [String: AttributeValue],
        isKnown: (Int64) -> Bool = { _ in false }
    ) throws(StoreError) -> [SavedRow] {
        if hasNoRows(entity) { return [] }
        let columns = entity.attributes
        let (clause, values) = whereClause(conditions)
        let sql = statements(of: entity).select + clause + " ORDER BY rowid"
        do {
            return try database.inDatabase { db in
                // Each row read in place from the statement, by column index (GRDB's cursor makes a row
                // object and checks the statement's state at each step).
                let statement = try Self.statement(sql, in: db, binding: values)
                let handle = statement.sqliteStatement
                defer { sqlite3_reset(handle) }
                var saved: [SavedRow] = []
                while try Self.nextRow(statement, in: db) {
                    let rowID = sqlite3_column_int64(handle, 0)
                    var values: [AttributeValue] = []
                    if !isKnown(rowID) {
                        values.reserveCapacity(columns.count)
                        for (offset, attribute) in columns.enumerated() {
                            let stored = Self.storedValue(handle, CInt(offset + 1))
                            values.append(AttributeValue(databaseValue: stored, as: attribute.type))
                        }
                    }
                    saved.append(SavedRow(rowID: rowID, values: values))
                }
                return saved
            }
        } catch {
            throw .database(String(describing: error))
        }
    }

    /// How many rows of `entity` match `conditions`.
    func count(of entity: EntityDescription, where conditions: [String: AttributeValue]) throws(StoreError) -> Int {
        if hasNoRows(entity) { return 0 }
        let (clause, values) = whereClause(conditions)
        let sql = statements(of: entity).count + clause
        do {
            return try database.inDatabase { db in
                try Self.firstInteger(of: Self.statement(sql, in: db, binding: values), in: db).map(Int.init) ?? 0
            }
        } catch {
            throw .database(String(describing: error))
        }
    }

    /// The values in `use`'s other column of the join table rows whose own column holds `value`: the
    /// identification values an object is linked to, in SQLite's order of the values.
    func links(_ use: JoinTable.Use, of value: AttributeValue) throws(StoreError) -> [AttributeValue] {
        let sql =
            "SELECT \(quote(use.otherColumn)) FROM \(quote(use.table.name)) WHERE \(quote(use.ownColumn)) = ? "
            + "ORDER BY 1"
        do {
            return try database.inDatabase { db in
                let statement = try Self.statement(sql, in: db, binding: CollectionOfOne(value.databaseValue))
                let handle = statement.sqliteStatement
                defer { sqlite3_reset(handle) }
                var values: [AttributeValue] = []
                while try Self.nextRow(statement, in: db) {
                    values.append(AttributeValue(databaseValue: Self.storedValue(handle, 0), as: use.otherType))
                }
                return values
            }
        } catch {
            throw .database(String(describing: error))
        }
    }

    /// The number of rows of every entity, then of every join table, in model order, read in one
    /// statement (a leak check runs it after every scenario).
    func rowCounts() throws(StoreError) -> [(entity: String, count: Int)] {
        let entities = tables
        guard !entities.isEmpty, tablesWithRows.withLock({ !$0.isEmpty }) else { return entities.map { ($0, 0) } }
        let sql = "SELECT " + entities.map { "(SELECT COUNT(*) FROM \(quote($0)))" }.joined(separator: ", ")
        do {
            return try database.inDatabase { db in
                guard let row = try Row.fetchOne(db.cachedStatement(sql: sql)) else { return [] }
                return entities.enumerated().map { index, entity in (entity, row[index] as Int) }
            }
        } catch {
            throw .database(String(describing: error))
        }
    }

    /// Applies `changes` in one transaction; returns the rowid of each insert (nil for other changes), in order.
    func apply(_ changes: [Change]) throws(StoreError) -> [Int64?] {
        do {
            return try transaction { db in
                tablesWithRows.withLock { tables in
                    // A payload's changes are of one table after another: each table looked up once a run.
                    var last: String?
                    for change in changes {
                        guard let table = change.tableGainingRows, table != last else { continue }
                        tables.insert(table)
                        last = table
                    }
                }
                var rowIDs: [Int64?] = []
                rowIDs.reserveCapacity(changes.count)
                var index = changes.startIndex
                while index < changes.endIndex {
                    // Consecutive inserts of one entity go in together (a mapped payload's objects).
                    if let (known, end) = insertRun(in: changes, from: index), end - index > 1 {
                        rowIDs += try insertRows(changes[index..<end], as: known, in: db)
                        index = end
                        continue
                    }
                    rowIDs.append(try apply(changes[index], in: db))
                    index += 1
                }
                return rowIDs
            }
        } catch {
            throw .database(String(describing: error))
        }
    }

    /// The end of the run of inserts from `start` that ``insertRows(_:as:in:)`` can put in together: of the
    /// same entity, described by the model's own attributes (at least one), with its statements.
    private func insertRun(in changes: [Change], from start: Int) -> (EntityStatements, Int)? {
        guard case .insert(let entity, let attributes, _) = changes[start], !attributes.isEmpty,
            let known = statements[entity], known.attributes == attributes
        else { return nil }
        var end = start + 1
        while end < changes.endIndex, case .insert(entity, let next, _) = changes[end], next == attributes {
            end += 1
        }
        return (known, end)
    }

    /// Inserts the rows of `inserts` with as few statements as a few rows each, and returns their rowids,
    /// in order. Each row is given the rowid SQLite would give it inserted alone — one more than the
    /// largest in the table (1 in an empty one) — so it is named in the statement and known without asking;
    /// at the largest rowid SQLite picks at random instead, and so do the rows then, inserted one by one.
    private func insertRows(_ inserts: ArraySlice<Change>, as known: EntityStatements, in db: Database) throws
        -> [Int64?]
    {
        let before = try Self.firstInteger(of: db.cachedStatement(sql: known.largestRowID), in: db) ?? 0
        guard before <= Int64.max - Int64(inserts.count) else { return try inserts.map { try apply($0, in: db) } }
        var rowIDs: [Int64?] = []
        rowIDs.reserveCapacity(inserts.count)
        var next = before + 1
        var chunk = inserts.startIndex
        while chunk < inserts.endIndex {
            let rows = inserts[chunk..<min(chunk + known.rowsPerInsert, inserts.endIndex)]
            let statement = try known.preparedRows.statement(rows: rows.count, of: known, in: db)
            var binding = Binding(statement, in: db)
            var rowID = next
            for case .insert(_, _, let row) in rows {
                try binding.bind(rowID.databaseValue)
                for value in row { try binding.bind(value) }
                rowID += 1
            }
            try Self.run(statement, in: db)
            rowIDs += (next..<rowID).map { $0 }
            next = rowID
            chunk = rows.endIndex
        }
        return rowIDs
    }

    /// Applies one change on `db`, inside the save's transaction; the rowid of an insert, else `nil`.
    private func apply(_ change: Change, in db: Database) throws -> Int64? {
        switch change {
        case .insert(let entity, let attributes, let values):
            if let known = statements[entity], known.attributes == attributes {
                let statement = try known.preparedInsert.statement(known.insert, in: db)
                var binding = Binding(statement, in: db)
                for value in values { try binding.bind(value) }
                try Self.run(statement, in: db)
                return sqlite3_last_insert_rowid(db.sqliteConnection)
            } else {
                // An app's own description of the entity: its columns by name.
                let named = EntityDescription.named(values, attributes)
                let columns = named.keys.sorted()
                try Self.run(
                    Self.insertSQL(entity, columns: columns),
                    in: db,
                    binding: columns.lazy.map { named[$0, default: .null].databaseValue }
                )
            }
            return db.lastInsertedRowID
        case .update(let entity, let rowID, let values):
            let pairs = values.sorted { $0.key < $1.key }
            guard !pairs.isEmpty else { return nil }
            let assignments = pairs.map { "\(quote($0.key)) = ?" }.joined(separator: ", ")
            try Self.run(
                "UPDATE \(quote(entity)) SET \(assignments) WHERE rowid = ?",
                in: db,
                binding: pairs.lazy.map(\.value.databaseValue) + CollectionOfOne(rowID.databaseValue)
            )
            return nil
        case .delete(let entity, let rowID):
            try Self.run(
                "DELETE FROM \(quote(entity)) WHERE rowid = ?",
                in: db,
                binding: CollectionOfOne(rowID.databaseValue)
            )
            return nil
        case .link(let table, let pair):
            try Self.run(
                "INSERT OR IGNORE INTO \(quote(table)) (\(Self.joinColumns)) VALUES (?, ?)",
                in: db,
                binding: [pair.source.databaseValue, pair.destination.databaseValue]
            )
            return nil
        case .unlink(let table, let pair):
            try Self.run(
                "DELETE FROM \(quote(table)) WHERE \(Self.joinColumnsMatch)",
                in: db,
                binding: [pair.source.databaseValue, pair.destination.databaseValue]
            )
            return nil
        case .unlinkAll(let table, let column, let value):
            try Self.run(
                "DELETE FROM \(quote(table)) WHERE \(quote(column)) = ?",
                in: db,
                binding: CollectionOfOne(value.databaseValue)
            )
            return nil
        }
    }

    /// Deletes every row of every table, join tables too, in one transaction.
    func removeAll() throws(StoreError) {
        do {
            guard tablesWithRows.withLock({ !$0.isEmpty }) else { return }
            try transaction { db in
                // Read in the transaction: a save's rows are marked in its own, which the queue orders.
                let withRows = tablesWithRows.withLock { $0 }
                for table in tables where withRows.contains(table) {
                    try Self.run(db.cachedStatement(sql: "DELETE FROM \(quote(table))"), in: db)
                }
                tablesWithRows.withLock { $0 = [] }
            }
        } catch {
            tablesWithRows.withLock { $0 = Set(tables) }  // rolled back: the rows may still be there
            throw .database(String(describing: error))
        }
    }

    /// Runs `body` in one transaction on the store's connection. Reads run outside transactions: each is
    /// one statement, and the queue serializes all access. Unlike GRDB's `write`, which compiles its
    /// BEGIN and COMMIT (and runs its authorizer) anew each time, the transaction statements are cached.
    private func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try database.inDatabase { db in
            try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
            do {
                let result = try body(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return result
            } catch {
                if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                throw error
            }
        }
    }

    /// The rows of `PRAGMA name` on the store's connection, as text (for tests).
    func pragma(_ name: String) throws -> [String] {
        try database.inDatabase { db in try String.fetchAll(db, sql: "PRAGMA \(name)") }
    }

    /// Copies the whole database into a SQLite file at `path`.
    func backup(toPath path: String) throws(StoreError) {
        do {
            let destination = try DatabaseQueue(path: path)
            try database.backup(to: destination)
        } catch {
            throw .database(String(describing: error))
        }
    }

    /// Whether `entity` is the model's own description and no row was added to its table since the store
    /// was made or emptied: a read of it then finds nothing without asking SQLite (every scenario's first
    /// GET indexes the objects its entity has, and its counts read tables a failed request left empty).
    /// Rows come only through ``apply(_:)``, which marks their table before inserting, in the transaction
    /// the queue orders.
    private func hasNoRows(_ entity: EntityDescription) -> Bool {
        statements[entity.name]?.attributes == entity.attributes
            && tablesWithRows.withLock { !$0.contains(entity.name) }
    }

    /// The statements of `entity`: made once for the model's own description of it; made now for another
    /// (an app may describe an entity itself, its attributes in another order). Comparing the attribute
    /// arrays is a pointer comparison for the model's own description, which shares their storage.
    private func statements(of entity: EntityDescription) -> EntityStatements {
        if let known = statements[entity.name], known.attributes == entity.attributes { return known }
        return EntityStatements(entity)
    }

    private func whereClause(_ conditions: [String: AttributeValue]) -> (String, [DatabaseValue]) {
        guard !conditions.isEmpty else { return ("", []) }
        let pairs = conditions.sorted { $0.key < $1.key }
        let clause = " WHERE " + pairs.map { "\(quote($0.key)) IS ?" }.joined(separator: " AND ")
        return (clause, pairs.map { $0.value.databaseValue })
    }

    /// `sql`'s cached statement with `values` bound by position (`sql` has exactly one `?` each). GRDB's
    /// `StatementArguments` would box every value in an existential and check them against the statement's
    /// parameters again on each execution; the statements here are made by this type, their parameters
    /// counted by construction (DECISIONS 171).
    private static func statement(
        _ sql: String,
        in db: Database,
        binding values: some Sequence<DatabaseValue>
    ) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        // Resets the statement and clears its bindings; execution then binds nothing more.
        statement.setUncheckedArguments(StatementArguments())
        try bind(values, to: statement, in: db)
        return statement
    }

    /// Column `index` of the row `handle` is on, as stored. Text is read by its length: GRDB's
    /// `DatabaseValue(sqliteStatement:index:)` reads it as a C string, which ends a text at its first NUL
    /// byte (`"a\u{0}b"` saved came back as `"a"`).
    private static func storedValue(_ handle: OpaquePointer, _ index: CInt) -> DatabaseValue {
        guard sqlite3_column_type(handle, index) == SQLITE_TEXT else {
            return DatabaseValue(sqliteStatement: handle, index: index)
        }
        // The text first, then its length (SQLite's order: the length is of the text as converted).
        guard let text = sqlite3_column_text(handle, index) else { return "".databaseValue }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self).databaseValue
    }

    /// The first column of the first row `statement` gives, as an integer (`nil` for NULL or no row), read
    /// through SQLite's C API — GRDB's `fetchOne` makes a cursor and a value for the one number — and the
    /// statement reset after. For a statement that only reads (`count(*)`, `max(rowid)`), bound and reset.
    private static func firstInteger(of statement: Statement, in db: Database) throws -> Int64? {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        guard try nextRow(statement, in: db), sqlite3_column_type(handle, 0) != SQLITE_NULL else { return nil }
        return sqlite3_column_int64(handle, 0)
    }

    /// Runs `sql` with `values` bound (``statement(_:in:binding:)``) to its end, as ``run(_:in:)`` does.
    private static func run(_ sql: String, in db: Database, binding values: some Sequence<DatabaseValue>) throws {
        try run(statement(sql, in: db, binding: values), in: db)
    }

    /// Runs a statement that changes rows (an insert, an update, a delete) to its end and resets it, through
    /// SQLite's C API: GRDB's `execute()` also tells its transaction observers of the statement, which a
    /// store has none of, at about a tenth of what inserting a row costs. The transaction's own statements
    /// (BEGIN, COMMIT, ROLLBACK) go through GRDB, which follows the transaction's state.
    private static func run(_ statement: Statement, in db: Database) throws {
        defer { sqlite3_reset(statement.sqliteStatement) }
        while try nextRow(statement, in: db) {}
    }

    /// Steps `statement` to its next row: `true` on a row, `false` once it is done; SQLite's error thrown.
    private static func nextRow(_ statement: Statement, in db: Database) throws -> Bool {
        switch sqlite3_step(statement.sqliteStatement) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: db.lastErrorMessage,
                sql: statement.sql
            )
        }
    }

    /// Resets `statement` and binds `values` to its parameters by position (one for each, so no binding of
    /// an earlier run is left).
    private static func bind(_ values: some Sequence<DatabaseValue>, to statement: Statement, in db: Database) throws {
        var binding = Binding(statement, in: db)
        for value in values { try binding.bind(value) }
    }

    /// A statement's parameters bound one after another, by position, from its reset on: text from the
    /// string's own UTF-8 bytes, copied by SQLite, with no C string made first (GRDB's `bind(to:at:)` makes
    /// one); an attribute's value without making its ``AttributeValue/databaseValue`` first, where that is
    /// the same number or text.
    private struct Binding {
        let statement: Statement
        let db: Database
        let handle: SQLiteStatement
        var index: CInt = 1

        init(_ statement: Statement, in db: Database) {
            self.statement = statement
            self.db = db
            handle = statement.sqliteStatement
            sqlite3_reset(handle)
        }

        mutating func bind(_ value: DatabaseValue) throws {
            switch value.storage {
            case .null: try check(sqlite3_bind_null(handle, index))
            case .int64(let number): try check(sqlite3_bind_int64(handle, index, number))
            case .double(let number): try check(sqlite3_bind_double(handle, index, number))
            case .string(let text): try bind(text)
            case .blob: try check(value.bind(to: handle, at: index))
            }
        }

        mutating func bind(_ value: AttributeValue) throws {
            switch value {
            case .null: try check(sqlite3_bind_null(handle, index))
            case .integer(let number): try check(sqlite3_bind_int64(handle, index, Int64(number)))
            case .double(let number): try check(sqlite3_bind_double(handle, index, number))
            case .string(let text): try bind(text)
            case .boolean, .date, .json: try bind(value.databaseValue)
            }
        }

        private mutating func bind(_ text: String) throws {
            var text = text
            let code = text.withUTF8 { bytes in
                sqlite3_bind_text(handle, index, bytes.baseAddress, CInt(bytes.count), sqliteTransient)
            }
            try check(code)
        }

        /// The next parameter, or SQLite's error thrown.
        private mutating func check(_ code: CInt) throws {
            guard code == SQLITE_OK else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: db.lastErrorMessage,
                    sql: statement.sql
                )
            }
            index += 1
        }
    }

    private static func insertSQL(_ entity: String, columns: [String]) -> String {
        columns.isEmpty
            ? "INSERT INTO \(quote(entity)) DEFAULT VALUES"
            : "INSERT INTO \(quote(entity)) (\(columns.map(quote).joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    /// A join table's two columns, in the order of `INSERT … VALUES (source, destination)`.
    private static let joinColumns = "\(quote(JoinTable.sourceColumn)), \(quote(JoinTable.destinationColumn))"
    private static let joinColumnsMatch =
        "\(quote(JoinTable.sourceColumn)) = ? AND \(quote(JoinTable.destinationColumn)) = ?"

    /// Two identification columns, never null, each pair once (the unique index serves lookups by source),
    /// and an index for lookups by destination (an inverse relationship, a deleted destination).
    private static func createJoinTableSQL(for table: JoinTable) -> String {
        let source = quote(JoinTable.sourceColumn)
        let destination = quote(JoinTable.destinationColumn)
        return "CREATE TABLE IF NOT EXISTS \(quote(table.name)) (\(source) \(table.sourceType.sqlType) NOT NULL, "
            + "\(destination) \(table.destinationType.sqlType) NOT NULL, UNIQUE (\(source), \(destination))); "
            + "CREATE INDEX IF NOT EXISTS \(quote(table.name + "_destination")) ON \(quote(table.name)) (\(destination))"
    }

    private static func createTableSQL(for entity: EntityDescription) -> String {
        let columns = entity.attributes.map { attribute in
            var column = "\(quote(attribute.name)) \(attribute.type.sqlType)"
            if attribute.name == entity.identificationAttribute { column += " UNIQUE" }
            return column
        }
        let body = columns.isEmpty ? "\"_empty\" INTEGER" : columns.joined(separator: ", ")
        return "CREATE TABLE IF NOT EXISTS \(quote(entity.name)) (\(body))"
    }
}

/// SQLite's `SQLITE_TRANSIENT`: the value bound is copied by SQLite before the call returns.
private let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// An SQL identifier in double quotes.
private func quote(_ identifier: String) -> String {
    guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
    return "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
}

extension PersistentStore.Change {
    /// Whether applying this change may add a row (the store then may have rows).
    /// The table the change may add a row to, if it may.
    var tableGainingRows: String? {
        switch self {
        case .insert(let entity, _, _): entity
        case .link(let table, _): table
        case .update, .delete, .unlink, .unlinkAll: nil
        }
    }
}
