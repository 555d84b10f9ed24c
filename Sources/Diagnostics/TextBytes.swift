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
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(of: number.magnitude, atLeast: 1)
    }

    /// Seconds with exactly three decimals (`0.012`, `10.000`): ``Duration/fixedSeconds``.
    package mutating func append(fixedSeconds duration: Duration) {
        let milliseconds = UInt64(duration.roundedMilliseconds)
        appendDigits(of: UInt(milliseconds / 1000), atLeast: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(of: UInt(milliseconds % 1000), atLeast: 3)
    }

    private mutating func appendDigits(of number: UInt, atLeast count: Int) {
        let start = bytes.count
        var rest = number
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0 || bytes.count - start < count
        bytes[start...].reverse()
    }

    /// The text so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}
