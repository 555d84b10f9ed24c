package import Foundation

/// A file that could not be written, said in words: `Cannot write 'out/report.xml': it is a folder.`
/// Reports and the kept store are written through ``replace(_:writing:)``, so a file is never half-written.
package struct FileWriteError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "Cannot write '\(path)': \(reason)." }

    /// Writes a new file beside `url` with `write`, then renames it over `url`: rename(2) replaces the
    /// destination atomically (FileManager.replaceItemAt is unreliable on Linux), so readers see the old
    /// file or the new one, never part of one.
    package static func replace(_ url: URL, writing write: (URL) throws -> Void) throws(FileWriteError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try write(temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw FileWriteError(
                path: url.path,
                reason: error is CocoaError ? "its folder cannot be written to" : "\(error)"
            )
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw FileWriteError(path: url.path, reason: reason)
        }
    }

    /// Why `path` could not take a file, checked before a run so that the run is not wasted: its folder
    /// is missing or not writable, or the path is a folder. `nil` when it looks writable.
    package static func problem(writing path: String) -> FileWriteError? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return FileWriteError(path: path, reason: "it is a folder")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return FileWriteError(path: path, reason: "the folder '\(folder)' does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            return FileWriteError(path: path, reason: "the folder '\(folder)' cannot be written to")
        }
        return nil
    }
}
