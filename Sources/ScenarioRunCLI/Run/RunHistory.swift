import Foundation
import Scenarios

/// `.scenario-run/history.jsonl`: one line per run — when, how long, the totals, and which scenarios
/// passed, failed or were flaky — the newest last, the last ``kept`` runs only. The HTML report reads it
/// for each scenario's last runs and the run's duration trend.
///
/// A scenario is named in a line by ``key(_:)``, a 12-digit hash of its stable file and name, so that a
/// line stays small (13 bytes a scenario); a run of more than ``scenariosPerLine`` scenarios keeps only
/// its totals. The file is rewritten whole (renamed into place) under a lock, so two runs ending together
/// both get their line and a reader never sees half a line.
struct RunHistory: Sendable {
    /// How many runs are kept.
    static let kept = 50
    /// The most scenarios a line names.
    static let scenariosPerLine = 20_000
    /// A longer file is not read (and is started again).
    static let fileLimit = 64 << 20

    /// One run.
    struct Run: Codable, Equatable, Sendable {
        /// When it ended, in seconds since 1970.
        var time: Double
        var duration: Double
        var passed: Int
        var failed: Int
        var skipped: Int
        var flaky: Int
        var cancelled: Bool
        /// The keys of the scenarios that passed (not flaky), failed and were flaky, space-separated; empty
        /// when the run had more than ``scenariosPerLine``.
        var passedKeys = ""
        var failedKeys = ""
        var flakyKeys = ""
    }

    let url: URL

    init(projectDirectory: URL) {
        url = projectDirectory.appendingPathComponent(".scenario-run").appendingPathComponent("history.jsonl")
    }

    /// The runs kept, oldest first; lines that cannot be read are left out, no file is no run.
    func load() -> [Run] {
        guard let data = Self.read(url) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Run.self, from: $0) }
    }

    /// Adds `run` as the newest line and keeps the last ``kept``, under an exclusive lock on
    /// `history.jsonl.lock`; written beside and renamed into place.
    func append(_ run: Run) throws {
        try StateFolder.make(for: url)
        let lockPath = url.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw FileWriteError(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        let earlier = (Self.read(url) ?? Data()).split(separator: UInt8(ascii: "\n")).suffix(Self.kept - 1)
        var text = Data()
        for line in earlier {
            text.append(contentsOf: line)
            text.append(UInt8(ascii: "\n"))
        }
        text.append(try JSONEncoder().encode(run))
        text.append(UInt8(ascii: "\n"))
        try FileWriteError.write(text, to: url)
    }

    private static func read(_ url: URL) -> Data? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? Int, size <= fileLimit
        else { return nil }
        return try? Data(contentsOf: url)
    }

    /// A scenario's name in the history: 12 hex digits of the FNV-1a hash of its stable file
    /// (``FailureState/stableFile(_:)``, given) and name.
    static func key(file: String, name: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in file.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = (hash ^ 0x0A) &* 0x100_0000_01b3
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash & 0xFFFF_FFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// Each scenario's last runs, oldest first, as marks: `p` passed, `f` failed, `k` flaky, `-` not run
    /// (or not named: a run too large to name its scenarios). At most `count` runs.
    static func marks(for keys: [String], in runs: [Run], count: Int = 20) -> [String] {
        let recent = runs.suffix(count)
        let named = recent.map { run -> [Substring: Character] in
            var outcome: [Substring: Character] = [:]
            for key in run.passedKeys.split(separator: " ") { outcome[key] = "p" }
            for key in run.failedKeys.split(separator: " ") { outcome[key] = "f" }
            for key in run.flakyKeys.split(separator: " ") { outcome[key] = "k" }
            return outcome
        }
        return keys.map { key in
            String(named.map { $0[Substring(key)] ?? "-" })
        }
    }
}
