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

    /// Merges a run's results into the file as it is now (``merged(previous:ran:failed:)``), under an
    /// exclusive lock on `last-failed.json.lock` beside it: two runs ending together in one folder each
    /// keep the other's failures instead of replacing them with what the file held when they started.
    /// An unreadable file counts as `fallback` (what the run read at its start, if anything).
    package func update(ran: Set<String>, failed: Set<String>, fallback: Set<String>) throws {
        try StateFolder.make(for: url)
        let lockPath = url.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw UnreadableFile(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        let previous = (try? load()) ?? fallback
        try save(Self.merged(previous: previous, ran: ran, failed: failed))
    }

    /// Replaces the file with `names` (sorted), atomically.
    package func save(_ names: Set<String>) throws {
        try StateFolder.make(for: url)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(File(failed: names.sorted())).write(to: url, options: .atomic)
    }
}
