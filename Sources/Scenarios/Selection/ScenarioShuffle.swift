import SharedValues

/// The order of `--shuffle SEED`: a Fisher–Yates shuffle driven by ``SplitMix64``, so one seed gives
/// one order on every machine, with any `--jobs` and in every shard.
///
/// ```swift
/// let order = ScenarioShuffle(seed: 42).apply(selected)
/// print("Shuffled with seed \(42)")
/// ```
package struct ScenarioShuffle: Sendable, Hashable {
    package var seed: UInt64

    package init(seed: UInt64) {
        self.seed = seed
    }

    /// A seed for `--shuffle` without one: at most eight digits, easy to copy into the next run.
    package static func randomSeed() -> UInt64 {
        UInt64.random(in: 0..<100_000_000)
    }

    /// `items` in this seed's order.
    package func apply<Item>(_ items: [Item]) -> [Item] {
        var shuffled = items
        var generator = SplitMix64(seed: seed)
        var last = shuffled.count - 1
        while last > 0 {
            let other = Int(generator.next(below: UInt64(last + 1)))
            shuffled.swapAt(last, other)
            last -= 1
        }
        return shuffled
    }
}
