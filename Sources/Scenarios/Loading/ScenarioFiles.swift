import Diagnostics
import Foundation

/// Finds scenario files: a folder is searched recursively for `*.yml` / `*.yaml`, skipping names that start
/// with `.`, `scenario-run.yml` and `server.yml`; files come in path order.
///
/// Symbolic links are followed, but every folder and file is taken once, by its device and inode: a
/// folder linked to its parent neither loops nor lists its files again. A link to nothing that is named
/// like a scenario file is a diagnostic; other broken links are skipped. A folder that cannot be listed
/// (no read permission, search-only) and a scenario file whose name is not UTF-8 are diagnostics too:
/// nothing is skipped silently.
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

    /// Why a folder could not be listed, in the system's words.
    struct ListingError: Error {
        var reason: String
    }

    /// A folder's entries as `readdir` gives them (no `.`/`..`): UTF-8 names, and the others decoded
    /// with replacement characters, for the error. (FileManager decodes names lossily, so a name that is
    /// not UTF-8 led nowhere and was called a broken link.)
    static func listing(_ directory: String) -> Result<(names: [String], notUTF8: [String]), ListingError> {
        guard let stream = opendir(directory) else {
            return .failure(ListingError(reason: String(cString: strerror(errno))))
        }
        defer { closedir(stream) }
        var names: [String] = []
        var notUTF8: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { return .failure(ListingError(reason: String(cString: strerror(errno)))) }
                break
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                names.append(name)
            } else {
                notUTF8.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return .success((names, notUTF8))
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
            guard seen.insert(identity.key).inserted else { return }
            let names: [String]
            switch ScenarioFiles.listing(directory) {
            case .success(let listed):
                names = listed.names
                for raw in listed.notUTF8 {
                    let shown = directory + "/" + raw
                    if shown.hasSuffix(".yml") || shown.hasSuffix(".yaml") {
                        problems.append(ScenarioFiles.problem(.fileNameNotUTF8, at: shown))
                    }
                }
            case .failure(let error):
                problems.append(ScenarioFiles.problem(.unreadableFolder(error.reason), at: directory))
                return
            }
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
