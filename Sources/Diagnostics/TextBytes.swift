/// A line of text built as UTF-8 bytes in one buffer and made a `String` once: what a line written for
/// every request or every scenario is built with (appending to a `String` piece by piece costs several
/// times as much: each piece is checked and may grow the string).
///
/// ```swift
/// var line = TextBytes()
/// line.append("GET /restaurants → ")
/// line.append(200)
/// line.text   // "GET /restaurants → 200"
/// ```
package struct TextBytes {
    private var bytes: [UInt8] = []

    package init(capacity: Int = 96) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A number's decimal digits, as `String(number)` writes them, without making that string.
    package mutating func append(_ number: Int) {
        Self.appendDecimal(number, to: &bytes)
    }

    /// Seconds with exactly three decimals (`0.012`, `10.000`): ``Duration/fixedSeconds``.
    package mutating func append(fixedSeconds duration: Duration) {
        let milliseconds = UInt64(duration.roundedMilliseconds)
        Self.appendDigits(of: UInt(milliseconds / 1000), to: &bytes)
        bytes.append(UInt8(ascii: "."))
        Self.appendDigits(of: UInt(milliseconds % 1000), atLeast: 3, to: &bytes)
    }

    /// `number` in decimal, as `String(number)` writes it, appended to `bytes`: the one writer of digits
    /// for every buffer of bytes (these lines, JSON, XML).
    package static func appendDecimal(_ number: Int, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(of: number.magnitude, to: &bytes)
    }

    /// `number`'s decimal digits, at least `count` of them (zeros first; `count` at most 19), appended to
    /// `bytes`.
    package static func appendDigits(of number: UInt, atLeast count: Int = 1, to bytes: inout [UInt8]) {
        // Written from the last digit into room on the stack (a `UInt` has at most 20), then appended at
        // once: a byte appended at a time, each found by a division, was most of a worker line's numbers.
        let fewest = min(max(count, 1), 19)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = number
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0 || digits.count - start < fewest
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// The number `digits` write in decimal — only digits, at least one, as ``appendDigits(of:atLeast:to:)``
    /// writes them; `nil` for anything else (a sign, a space, an empty text) and for a number past
    /// `UInt64.max`.
    package static func decimal(_ digits: Substring.UTF8View) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var number: UInt64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow) = number.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            number = sum
        }
        return number
    }

    /// The text so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}
