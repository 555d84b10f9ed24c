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
    /// user: where it is, and an `sqlite3` command for each of the app's tables that holds rows (the
    /// first table when none does). Written beside and renamed into place, so a file there is replaced
    /// whole or not at all.
    package static func keep(in directory: URL) throws -> [String]? {
        guard let store = EntityStore.defaultStore else { return nil }
        let url = url(in: directory)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileWriteError.replace(url) { try store.backup(to: $0) }
        let names = store.model.entityNames
        var withRows = names.filter { ((try? store.countSaved($0)) ?? 0) > 0 }
        if withRows.isEmpty { withRows = Array(names.prefix(1)) }
        return ["KIF_SKIP_TEAR_DOWN: the last scenario's store is kept at \(url.path)"]
            + withRows.prefix(3).map { "  sqlite3 \(url.path) 'select * from \"\($0)\"'" }
    }
}
