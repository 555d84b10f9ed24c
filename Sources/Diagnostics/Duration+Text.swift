extension Duration {
    /// The longest duration a scenario file, `server.yml`, `scenario-run.yml` or an option may give: one day.
    package static let longestAllowed: Duration = .seconds(86_400)

    /// `seconds` rounded to milliseconds, a positive duration to at least one (`0.0001` is 1 ms: it was
    /// 0, a retry interval that busy-spun and a timeout that failed at once); `nil` when it is not a
    /// number, negative, or longer than ``longestAllowed`` (a 64-bit count of milliseconds cannot hold
    /// every `Double`, and converting one that it cannot hold traps).
    package init?(checkedSeconds seconds: Double) {
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else { return nil }
        let milliseconds = Int64((seconds * 1000).rounded())
        self = .milliseconds(seconds > 0 ? max(1, milliseconds) : 0)
    }

    /// Whole milliseconds, half a millisecond rounded up, by integer arithmetic (`0.0125 s` is 13);
    /// a negative duration counts as zero.
    package var roundedMilliseconds: Int64 {
        let parts = max(.zero, self).components
        return parts.seconds * 1000 + (parts.attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
    }

    /// Seconds with exactly three decimals: `0.012`, `10.000` (JUnit times, failure lines).
    package var fixedSeconds: String {
        var text = TextBytes(capacity: 16)
        text.append(fixedSeconds: self)
        return text.text
    }

    /// Seconds with at least one and at most three decimals: `10.0`, `0.25`, `0.012` (messages).
    package var shortSeconds: String {
        var text = Substring(fixedSeconds)
        while text.hasSuffix("0"), !text.hasSuffix(".0") { text = text.dropLast() }
        return String(text)
    }
}
