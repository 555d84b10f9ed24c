extension Int {
    /// The number with a comma between groups of three digits, as messages write counts: `7,900`.
    package var groupedDigits: String {
        let digits = Array(String(magnitude))
        var out = self < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
