import SharedValues

/// Part K of N of a suite (`--shard K/N`, 1-based): every scenario lands in exactly one part, its part
/// stays put as the suite changes, and the parts' sizes differ by at most one.
///
/// Each scenario gets a stable hash of its file and name (FNV-1a, then SplitMix64's finaliser — never
/// Swift's per-process `Hasher`); the scenarios sorted by hash are cut into N contiguous runs of
/// ⌊M/N⌋ or ⌈M/N⌉. Adding or removing one scenario moves each of the N − 1 cuts by at most one place,
/// so at most N − 1 other scenarios change part, however large the suite (DECISIONS.md).
///
/// ```swift
/// let shard = try Shard(parsing: "2/3")
/// let mine = shard.select(loaded)   // in load order
/// ```
package struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// K, from 1.
    package var index: Int
    /// N, 1 or more.
    package var total: Int
    /// When set (`--shard-timings`), the parts are balanced by these times instead of by count.
    package var timings: ShardTimings?

    package init(index: Int, total: Int, timings: ShardTimings? = nil) {
        precondition(total >= 1 && (1...total).contains(index), "a shard is K/N with 1 ≤ K ≤ N")
        self.index = index
        self.total = total
        self.timings = timings
    }

    /// Reads `K/N` as given to `--shard`.
    package init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.number(parts[0]), let total = Self.number(parts[1]) else {
            throw .malformed(text)
        }
        guard total >= 1, (1...total).contains(index) else { throw .outOfRange(text, total: total) }
        self.init(index: index, total: total)
    }

    /// `K/N`.
    package var description: String { "\(index)/\(total)" }

    /// The scenarios of this part, in their given order.
    package func select(_ scenarios: [Scenario]) -> [Scenario] {
        let ids = scenarios.map(\.id)
        let parts =
            timings.map { Self.parts(of: ids, count: total, weights: $0.weights(ids)) }
            ?? Self.parts(of: ids, count: total)
        return zip(scenarios, parts).filter { $0.1 == index }.map(\.0)
    }

    /// The part (1-based) of each id, in the ids' order: sorted by ``stableHash(_:)`` (ties by file, name
    /// and position), then cut into `count` contiguous runs whose sizes differ by at most one.
    package static func parts(of ids: [ScenarioID], count: Int) -> [Int] {
        precondition(count >= 1, "a suite is cut into one part or more")
        let sorted = ids.indices.map { (hash: stableHash(ids[$0]), id: ids[$0], position: $0) }.sorted {
            ($0.hash, $0.id.file, $0.id.name, $0.position) < ($1.hash, $1.id.file, $1.id.name, $1.position)
        }
        var parts = Array(repeating: 0, count: ids.count)
        for (rank, entry) in sorted.enumerated() {
            // Run k (0-based) holds ranks ⌊k·M/N⌋ ..< ⌊(k+1)·M/N⌋: rank r is in run ⌊((r+1)·N − 1)/M⌋.
            parts[entry.position] = ((rank + 1) * count - 1) / ids.count + 1
        }
        return parts
    }

    /// The part (1-based) of each id when balancing by time: longest first (ties by hash, file, name and
    /// position), each to the part with the least time so far (then the fewest scenarios, then the first).
    /// Balanced by time, not by count, and not stable: one changed time can move many scenarios.
    package static func parts(of ids: [ScenarioID], count: Int, weights: [Double]) -> [Int] {
        precondition(count >= 1 && weights.count == ids.count, "one weight per id, one part or more")
        let hashes = ids.map(stableHash)
        let order = ids.indices.sorted {
            (-weights[$0], hashes[$0], ids[$0].file, ids[$0].name, $0) < (
                -weights[$1], hashes[$1], ids[$1].file, ids[$1].name, $1
            )
        }
        // Parts past the M-th stay empty (each of the first M would take one scenario first), so only
        // min(N, M) are kept: `--shard 1/999999999` allocates per scenario, not per part.
        let slots = max(1, min(count, ids.count))
        var time = Array(repeating: 0.0, count: slots)
        var sizes = Array(repeating: 0, count: slots)
        var parts = Array(repeating: 0, count: ids.count)
        for position in order {
            let part = time.indices.min { (time[$0], sizes[$0], $0) < (time[$1], sizes[$1], $1) } ?? 0
            parts[position] = part + 1
            time[part] += weights[position]
            sizes[part] += 1
        }
        return parts
    }

    /// A hash of a scenario's file and name that is the same in every process, on every platform:
    /// 64-bit FNV-1a over `file`, a NUL byte and `name` (UTF-8), mixed by SplitMix64's finaliser so that
    /// names that differ only at the end still spread over the whole ring.
    package static func stableHash(_ id: ScenarioID) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        id.file.utf8.forEach(add)
        add(0)
        id.name.utf8.forEach(add)
        return SplitMix64.mix(hash)
    }

    /// A decimal number of ASCII digits only (no sign, no spaces), not too large.
    static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
