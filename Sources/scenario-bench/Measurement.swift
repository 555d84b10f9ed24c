/// Times a piece of work with `ContinuousClock`: a warm-up, then `runs` timed repetitions; the
/// result is the median (and range) per operation.
struct Measurement: Sendable {
    /// What was measured, e.g. `step dispatch (100 succeed steps)`.
    var name: String
    /// Per-operation durations of every timed run, sorted.
    var samples: [Duration]
    /// What one operation is (`step`, `request`, `scenario`…).
    var unit: String

    var median: Duration { samples[samples.count / 2] }
    var minimum: Duration { samples[0] }
    var maximum: Duration { samples[samples.count - 1] }

    /// One Markdown table row: name, median, min, max, runs.
    var row: String {
        "| \(name) | \(Self.format(median)) | \(Self.format(minimum)) | \(Self.format(maximum)) | per \(unit) | \(samples.count) |"
    }

    static let header = "| benchmark | median | min | max | unit | runs |\n|---|---|---|---|---|---|"

    /// `812 ns`, `41.3 µs`, `2.05 ms`, `1.203 s`.
    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        switch seconds {
        case ..<1e-6: return "\(Int((seconds * 1e9).rounded())) ns"
        case ..<1e-3: return String(format3: seconds * 1e6) + " µs"
        case ..<1: return String(format3: seconds * 1e3) + " ms"
        default: return String(format3: seconds) + " s"
        }
    }
}

extension String {
    /// Three significant digits without Foundation's `String(format:)`.
    init(format3 value: Double) {
        let decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
        if let dot = text.firstIndex(of: ".") {
            let have = text.distance(from: text.index(after: dot), to: text.endIndex)
            if have < decimals { text += String(repeating: "0", count: decimals - have) }
        }
        self = text
    }
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
