package import Foundation

/// The scenarios that failed in the last run, by file and name, kept in `.scenario-run/last-failed.json`
/// for `--rerun-failed`.
package struct FailureState: Sendable {
    private struct File: Codable {
        var failed: [Entry]
    }

    /// One failure: `{"file": …, "name": …}`; a bare name (what earlier versions wrote) is a scenario of
    /// that name in any file (``ScenarioID/file`` empty).
    private struct Entry: Codable {
        var id: ScenarioID

        init(_ id: ScenarioID) { self.id = id }

        init(from decoder: any Decoder) throws {
            if let name = try? decoder.singleValueContainer().decode(String.self) {
                id = ScenarioID(file: "", name: name)
            } else {
                id = try ScenarioID(from: decoder)
            }
        }

        func encode(to encoder: any Encoder) throws { try id.encode(to: encoder) }
    }

    /// A scenario as the state names it: its file by real path, relative to the current folder when
    /// inside it, so `Scenarios/a.yml`, `./Scenarios/a.yml` and a link to it are one file.
    package static func key(_ id: ScenarioID) -> ScenarioID {
        ScenarioID(file: stableFile(id.file), name: id.name)
    }

    /// ``key(_:)``'s file.
    package static func stableFile(_ file: String) -> String {
        let path = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }

    /// Whether `failed` (as loaded) names `scenario`: by its key, or by name alone for an old file's entry.
    package static func contains(_ failed: Set<ScenarioID>, _ scenario: Scenario) -> Bool {
        failed.contains(key(scenario.id)) || failed.contains(ScenarioID(file: "", name: scenario.name))
    }

    /// The `last-failed.json` file.
    package var url: URL

    /// The state kept under `directory/.scenario-run/`.
    package init(projectDirectory directory: URL) {
        self.url = directory.appendingPathComponent(".scenario-run").appendingPathComponent("last-failed.json")
    }

    /// What the file holds, for ``StateFolder/UnreadableFile``.
    static let form = #"the failed scenarios as {"failed": [{"file": ..., "name": ...}]}"#

    /// The failed scenarios; empty when there is no file yet.
    package func load() throws(StateFolder.UnreadableFile) -> Set<ScenarioID> {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            let data = try Data(contentsOf: url)
            return Set(try JSONDecoder().decode(File.self, from: data).failed.map(\.id))
        } catch is DecodingError {
            throw StateFolder.UnreadableFile(
                path: url.path,
                reason: "it is not the JSON scenario-run writes",
                form: Self.form
            )
        } catch {
            throw StateFolder.UnreadableFile(path: url.path, reason: "\(error.localizedDescription)", form: Self.form)
        }
    }

    /// The failures to keep after a run: the previous ones it did not run again (filtered out, skipped,
    /// cancelled), and its own.
    package static func merged(previous: Set<ScenarioID>, ran: Set<ScenarioID>, failed: Set<ScenarioID>)
        -> Set<ScenarioID>
    {
        // An old file's bare name is settled once a scenario of that name ran.
        let ranNames = Set(ran.map(\.name))
        return previous.subtracting(ran).filter { !($0.file.isEmpty && ranNames.contains($0.name)) }.union(failed)
    }

    /// Merges a run's results into the file as it is now (``merged(previous:ran:failed:)``), under an
    /// exclusive lock on `last-failed.json.lock` beside it: two runs ending together in one folder each
    /// keep the other's failures instead of replacing them with what the file held when they started.
    /// An unreadable file counts as `fallback` (what the run read at its start, if anything).
    package func update(ran: Set<ScenarioID>, failed: Set<ScenarioID>, fallback: Set<ScenarioID>) throws {
        try StateFolder.make(for: url)
        let lockPath = url.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else {
            throw StateFolder.UnreadableFile(path: lockPath, reason: String(cString: strerror(errno)), form: Self.form)
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        let previous = (try? load()) ?? fallback
        try save(Self.merged(previous: previous, ran: ran, failed: failed))
    }

    /// Replaces the file with `failed` (sorted), atomically.
    package func save(_ failed: Set<ScenarioID>) throws {
        try StateFolder.make(for: url)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let sorted = failed.sorted { ($0.file, $0.name) < ($1.file, $1.name) }
        try encoder.encode(File(failed: sorted.map(Entry.init))).write(to: url, options: .atomic)
    }
}
