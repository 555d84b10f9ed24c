package import Foundation
import ObjectManager
import Scenarios

/// The store the last scenario left, kept as a SQLite file when tear-down was skipped
/// (`KIF_SKIP_TEAR_DOWN`), so that it can be inspected after the run.
package enum KeptStore {
    /// Where the store is kept, under the project's folder.
    package static func url(in directory: URL) -> URL {
        directory.appendingPathComponent(".scenario-run/last-store.sqlite")
    }

    /// Writes the default entity store (if set-up left one) to ``url(in:)`` and returns what to tell the
    /// user (``hint(for:at:)``). Written beside and renamed into place, so a file there is replaced whole or
    /// not at all.
    ///
    /// A file already there is replaced only when scenario-run kept it (its SQLite application ID says
    /// so): anything else at that path is the user's, and is left alone with an error.
    package static func keep(in directory: URL) throws -> [String]? {
        guard let store = EntityStore.defaultStore else { return nil }
        let url = url(in: directory)
        try StateFolder.make(for: url)
        if FileManager.default.fileExists(atPath: url.path), !isKept(url) {
            throw FileWriteError(
                path: url.path,
                reason: "a file scenario-run did not keep is there; move it away or delete it to keep the store"
            )
        }
        try FileWriteError.replace(url) { temporary in
            try store.backup(to: temporary)
            try mark(temporary)
        }
        return hint(for: store, at: url)
    }

    /// How many tables of each kind — entities', join tables — the hint names with an `sqlite3` command.
    static let tablesShown = 3

    /// What to tell the user about `store` kept at `url`: where it is, and an `sqlite3` command for each
    /// table that holds rows — the entities' (the first entity's when no table does), then the join tables
    /// of many-to-many relationships (`Book_authors`), up to ``tablesShown`` of each kind; one
    /// `sqlite3 … .tables` line says how many more hold rows.
    package static func hint(for store: EntityStore, at url: URL) -> [String] {
        let joinTables = Set(store.model.joinTables.map(\.name))
        let withRows = ((try? store.savedRowCounts()) ?? []).map(\.entity)
        var entities = withRows.filter { !joinTables.contains($0) }
        let joins = withRows.filter { joinTables.contains($0) }
        if withRows.isEmpty { entities = Array(store.model.entityNames.prefix(1)) }
        let path = shellQuoted(url.path)
        let shown = entities.prefix(tablesShown) + joins.prefix(tablesShown)
        var lines = ["KIF_SKIP_TEAR_DOWN: the last scenario's store is kept at \(url.path)"]
        lines += shown.map { "  sqlite3 \(path) \(shellQuoted("select * from \"\($0)\""))" }
        let more = entities.count + joins.count - shown.count
        if more > 0 {
            lines.append("  sqlite3 \(path) .tables    # \(more) more table\(more == 1 ? "" : "s") with rows")
        }
        return lines
    }

    /// `text` as one shell word: in single quotes, each `'` written `'\''`; a plain path stays as it is.
    /// The printed command is pasted into a shell, and a folder named `a;echo x` must not run `echo`.
    static func shellQuoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "/._-+,:@%".unicodeScalars.contains(scalar))
            }
        if plain { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The SQLite application ID of a kept store ("SRKS"), at offset 68 of the database header.
    static let applicationID: [UInt8] = Array("SRKS".utf8)
    private static let header = Array("SQLite format 3\0".utf8)

    /// Whether the file at `url` is a store scenario-run kept.
    static func isKept(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url), let bytes = try? handle.read(upToCount: 72) else {
            return false
        }
        try? handle.close()
        return bytes.count == 72 && Array(bytes.prefix(16)) == header && Array(bytes[68..<72]) == applicationID
    }

    /// Sets the application ID of the (closed) database file at `url`: the header field SQLite's
    /// `PRAGMA application_id` sets, written in place.
    private static func mark(_ url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: 68)
        try handle.write(contentsOf: Data(applicationID))
    }
}
