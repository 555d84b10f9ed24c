import Diagnostics
import Foundation

/// Finds scenario files: a folder is searched recursively for `*.yml` / `*.yaml`, skipping names that start
/// with `.`, `scenario-run.yml` and `server.yml`; files come in path order.
///
/// Symbolic links are followed, but every folder and file is taken once, by its device and inode: a
/// folder linked to its parent neither loops nor lists its files again. A link to nothing that is named
/// like a scenario file is a diagnostic; other broken links are skipped.
enum ScenarioFiles {
    static let excludedNames: Set<String> = ["scenario-run.yml", "scenario-run.yaml", "server.yml", "server.yaml"]

    /// The scenario files under `paths`, each as the user would write it; missing paths are diagnostics.
    static func find(in paths: [String]) -> (files: [String], problems: [Diagnostic]) {
        var search = Search()
        for path in paths {
            guard let identity = FileIdentity(path) else {
                let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
                search.problems.append(problem(.noSuchPath(lookedIn: folder), at: path))
                continue
            }
            if identity.isDirectory {
                var found: [String] = []
                search.visit(directory: path, identity, into: &found)
                search.files += found.sorted()
            } else if !excludedNames.contains((path as NSString).lastPathComponent),
                search.seen.insert(identity.key).inserted
            {
                search.files.append(path)
            }
        }
        var seen = Set<String>()
        return (search.files.filter { seen.insert($0).inserted }, search.problems)
    }

    private static func problem(_ error: LoadError, at path: String) -> Diagnostic {
        Diagnostic(location: SourceLocation(file: path, line: 1, column: 1), message: error.message, sourceLine: nil)
    }

    /// One search over several paths: what was found, and every folder and file already taken.
    private struct Search {
        var files: [String] = []
        var problems: [Diagnostic] = []
        /// Device and inode of every folder entered and file taken.
        var seen: Set<FileIdentity.Key> = []

        mutating func visit(directory: String, _ identity: FileIdentity, into found: inout [String]) {
            guard seen.insert(identity.key).inserted,
                let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
            else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                let isScenarioName =
                    (name.hasSuffix(".yml") || name.hasSuffix(".yaml")) && !excludedNames.contains(name)
                guard let entry = FileIdentity(path) else {
                    if isScenarioName { problems.append(ScenarioFiles.problem(.brokenLink, at: path)) }
                    continue
                }
                if entry.isDirectory {
                    visit(directory: path, entry, into: &found)
                } else if isScenarioName, seen.insert(entry.key).inserted {
                    found.append(path)
                }
            }
        }
    }
}

/// A file's device and inode (links followed), and whether it is a folder.
private struct FileIdentity {
    struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    var key: Key
    var isDirectory: Bool

    /// `nil` when nothing is there (or a link leads nowhere).
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        key = Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
    }
}
