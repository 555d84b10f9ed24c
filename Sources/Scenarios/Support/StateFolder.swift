package import Foundation

/// The project's `.scenario-run/` folder (the failures for `--rerun-failed`, the kept store), made when
/// something is written to it — and only inside a project folder that is still there: a project removed
/// during `--watch` is not made again by the run's end.
///
/// ```swift
/// try StateFolder.make(for: directory.appendingPathComponent(".scenario-run/last-failed.json"))
/// ```
package enum StateFolder {
    /// Makes the folder that holds `file` (`.scenario-run/`) unless it is there; throws when the folder
    /// above it (the project's) is gone.
    package static func make(for file: URL) throws {
        let folder = file.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue { return }
        let project = folder.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: project, isDirectory: &isFolder), isFolder.boolValue else {
            throw FileWriteError(path: file.path, reason: "the project folder '\(project)' is gone")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch {
            // Another run in the project made it meanwhile.
            if FileManager.default.fileExists(atPath: folder.path) { return }
            throw error
        }
    }

    /// A state file that cannot be read, said in words with its path and what it should hold.
    package struct UnreadableFile: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        /// What the file holds when scenario-run wrote it (`the failed scenarios as {…}`).
        package var form: String

        package init(path: String, reason: String, form: String) {
            self.path = path
            self.reason = reason
            self.form = form
        }

        package var description: String {
            "Cannot read '\(path)' (\(reason)): it should hold \(form). Delete it to start afresh."
        }
    }
}
