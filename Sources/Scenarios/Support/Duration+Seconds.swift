import Foundation

extension Duration {
    /// The duration in seconds as a floating-point number.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Seconds with at least one and at most three decimals: `10.0`, `0.25`, `0.012`.
    package var shortSeconds: String {
        var text = String(format: "%.3f", seconds)
        while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
        return text
    }

    /// Seconds with exactly three decimals: `0.012`.
    package var fixedSeconds: String {
        String(format: "%.3f", seconds)
    }
}
