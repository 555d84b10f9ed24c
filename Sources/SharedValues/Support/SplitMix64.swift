/// SplitMix64 (Steele, Lea and Flood, 2014): a small seeded generator whose sequence is fixed by its
/// seed alone — the same on every platform and Swift version, which `SystemRandomNumberGenerator` and
/// the standard library's `shuffle(using:)` do not promise. What `--shuffle SEED` orders with.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let roll = generator.next(below: 6)   // 0..<6, the same for seed 42 everywhere
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in `0..<bound`, without modulo bias (Lemire's multiply-and-reject).
    package mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "next(below:) needs a bound above 0")
        var (high, low) = next().multipliedFullWidth(by: bound)
        if low < bound {
            let threshold = (0 &- bound) % bound
            while low < threshold { (high, low) = next().multipliedFullWidth(by: bound) }
        }
        return high
    }

    /// ``next(below:)`` for `Int` bounds (indexes and counts); `bound` must be above 0.
    package mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: next(below: UInt64(bound)))
    }

    /// SplitMix64's finaliser: spreads every input bit over the whole word.
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
