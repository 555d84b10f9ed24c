import Foundation
import RunPipeline
import Scenarios
import SharedValues

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
        // Read with the package's own JSON parser (JSONDecoder took 17.6 M instructions for 50 lines of 200
        // scenarios each, a run's worth of reporting), the lines found with `memchr` (`Data.split` took 17.6 M
        // more for 30 lines).
        var runs: [Run] = []
        var start = 0
        for end in WorkerProcess.newlineOffsets(in: data) + [data.count] {
            if end > start,
                let json = try? JSONValue(parsing: data[(data.startIndex + start)..<(data.startIndex + end)]),
                let run = Run(json: json)
            {
                runs.append(run)
            }
            start = end + 1
        }
        return runs
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
        var text = Self.lastLines(Self.kept - 1, of: Self.read(url) ?? Data())
        text.append(try JSONEncoder().encode(run))
        text.append(UInt8(ascii: "\n"))
        try FileWriteError.write(text, to: url)
    }

    /// The last `count` lines of `data`, each ending with a newline, as one copy (the file is rewritten at
    /// the end of every run: a line of 20,000 scenarios is 260 KB).
    static func lastLines(_ count: Int, of data: Data) -> Data {
        let (start, end) = data.withUnsafeBytes { raw -> (Int, Int) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            var index = end
            var seen = 0
            while index > 0 {
                if bytes[index - 1] == UInt8(ascii: "\n") {
                    seen += 1
                    if seen == count { break }
                }
                index -= 1
            }
            return (index, end)
        }
        guard count > 0, start < end else { return Data() }
        var lines = Data(data[(data.startIndex + start)..<(data.startIndex + end)])
        lines.append(UInt8(ascii: "\n"))
        return lines
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
        // Each text's bytes read in place: every scenario of every run is named so.
        func mix(_ hash: inout UInt64, _ text: String) {
            var text = text
            text.withUTF8 { bytes in
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        mix(&hash, file)
        hash = (hash ^ 0x0A) &* 0x100_0000_01b3
        mix(&hash, name)
        let hex = String(hash & 0xFFFF_FFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// Each scenario's last runs, oldest first, as marks: `p` passed, `f` failed, `k` flaky, `-` not run
    /// (or not named: a run too large to name its scenarios). At most `count` runs.
    static func marks(for keys: [String], in runs: [Run], count: Int = 20) -> [String] {
        let recent = runs.suffix(count)
        // Keys are 12 hex digits: looked up as numbers, each run's lists read once, into a grid of marks.
        var positions: [UInt64: [Int]] = [:]
        positions.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
            guard let value = UInt64(key, radix: 16) else { continue }
            positions[value, default: []].append(position)
        }
        var grid = [[UInt8]](repeating: [UInt8](repeating: UInt8(ascii: "-"), count: recent.count), count: keys.count)
        for (column, run) in recent.enumerated() {
            for (list, mark) in [
                (run.passedKeys, UInt8(ascii: "p")), (run.failedKeys, UInt8(ascii: "f")),
                (run.flakyKeys, UInt8(ascii: "k")),
            ] {
                eachHexWord(in: list) { value in
                    guard let found = positions[value] else { return }
                    for position in found { grid[position][column] = mark }
                }
            }
        }
        return grid.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the value of each space-separated word of `list` that is 1 to 16 lowercase hex
    /// digits, read in one pass over its bytes (a run's lists are 13 bytes a scenario: `String.split` took
    /// 8.3 M instructions for 20 runs of 200).
    private static func eachHexWord(in list: String, _ body: (UInt64) -> Void) {
        var list = list
        list.withUTF8 { bytes in
            var value: UInt64 = 0
            var digits = 0
            var valid = true
            for byte in bytes {
                switch byte {
                case UInt8(ascii: " "):
                    if valid, digits > 0 { body(value) }
                    (value, digits, valid) = (0, 0, true)
                    continue
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value &<< 4 | UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value &<< 4 | UInt64(byte - UInt8(ascii: "a") + 10)
                default: valid = false
                }
                digits += 1
                if digits > 16 { valid = false }
            }
            if valid, digits > 0 { body(value) }
        }
    }
}

extension RunHistory.Run {
    /// A line as ``RunHistory/append(_:)`` writes it (its `Codable` form); `nil` when a field is missing or of
    /// another type. The keys may be missing (an older line).
    init?(json: JSONValue) {
        guard case .object(let fields) = json else { return nil }
        func number(_ key: String) -> Double? {
            switch fields[key] {
            case .int(let value)?: Double(value)
            case .double(let value)?: value
            default: nil
            }
        }
        func count(_ key: String) -> Int? {
            if case .int(let value)? = fields[key] { value } else { nil }
        }
        func keys(_ key: String) -> String? {
            switch fields[key] {
            case nil: ""
            case .string(let value)?: value
            default: nil
            }
        }
        guard let time = number("time"), let duration = number("duration"), let passed = count("passed"),
            let failed = count("failed"), let skipped = count("skipped"), let flaky = count("flaky"),
            case .bool(let cancelled)? = fields["cancelled"], let passedKeys = keys("passedKeys"),
            let failedKeys = keys("failedKeys"), let flakyKeys = keys("flakyKeys")
        else { return nil }
        self.init(
            time: time,
            duration: duration,
            passed: passed,
            failed: failed,
            skipped: skipped,
            flaky: flaky,
            cancelled: cancelled,
            passedKeys: passedKeys,
            failedKeys: failedKeys,
            flakyKeys: flakyKeys
        )
    }
}
