import Diagnostics
import Foundation

/// Finds scenario files: a folder is searched recursively for `*.yml` / `*.yaml`, skipping names that start
/// with `.`, `scenario-run.yml` and `server.yml`; files come in path order.
enum ScenarioFiles {
    static let excludedNames: Set<String> = ["scenario-run.yml", "scenario-run.yaml", "server.yml", "server.yaml"]

    /// The scenario files under `paths`, each as the user would write it; missing paths are diagnostics.
    static func find(in paths: [String]) -> (files: [String], problems: [Diagnostic]) {
        var files: [String] = []
        var problems: [Diagnostic] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(
                    Diagnostic(
                        location: SourceLocation(file: path, line: 1, column: 1),
                        message: LoadError.noSuchPath.message,
                        sourceLine: nil
                    )
                )
                continue
            }
            if isDirectory.boolValue {
                files += search(path).sorted()
            } else if !excludedNames.contains((path as NSString).lastPathComponent) {
                files.append(path)
            }
        }
        var seen = Set<String>()
        return (files.filter { seen.insert($0).inserted }, problems)
    }

    private static func search(_ directory: String) -> [String] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
        var found: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found += search(path)
            } else if name.hasSuffix(".yml") || name.hasSuffix(".yaml"), !excludedNames.contains(name) {
                found.append(path)
            }
        }
        return found
    }
}
