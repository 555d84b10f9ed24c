package import Foundation

/// The names of the scenarios that failed in the last run, kept in `.scenario-run/last-failed.json`
/// for `--rerun-failed`.
package struct FailureState: Sendable {
    private struct File: Codable {
        var failed: [String]
    }

    /// The `last-failed.json` file.
    package var url: URL

    /// The state kept under `directory/.scenario-run/`.
    package init(projectDirectory directory: URL) {
        self.url = directory.appendingPathComponent(".scenario-run").appendingPathComponent("last-failed.json")
    }

    /// A state file that cannot be read, said in words with its path.
    package struct UnreadableFile: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String {
            "Cannot read '\(path)' (\(reason)): it should hold the failed scenarios' names as {\"failed\": [...]}. Delete it to start afresh."
        }
    }

    /// The failed names; empty when there is no file yet.
    package func load() throws(UnreadableFile) -> Set<String> {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            let data = try Data(contentsOf: url)
            return Set(try JSONDecoder().decode(File.self, from: data).failed)
        } catch is DecodingError {
            throw UnreadableFile(path: url.path, reason: "it is not the JSON scenario-run writes")
        } catch {
            throw UnreadableFile(path: url.path, reason: "\(error.localizedDescription)")
        }
    }

    /// The failures to keep after a run: the previous ones it did not run again (filtered out, skipped,
    /// cancelled), and its own.
    package static func merged(previous: Set<String>, ran: Set<String>, failed: Set<String>) -> Set<String> {
        previous.subtracting(ran).union(failed)
    }

    /// Replaces the file with `names` (sorted), atomically.
    package func save(_ names: Set<String>) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(File(failed: names.sorted())).write(to: url, options: .atomic)
    }
}
