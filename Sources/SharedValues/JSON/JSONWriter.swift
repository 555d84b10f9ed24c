import Diagnostics

/// Writes JSON text without `JSONEncoder`: keys sorted or in dictionary order, `/` unescaped.
enum JSONWriter {
    /// `value` as JSON text at the end of `out`; `htmlSafe` writes `<`, `>` and `&` in strings as `\u003c`,
    /// `\u003e`, `\u0026`, so that the text can sit in an HTML `<script>` block (nothing can end it).
    static func write(_ value: JSONValue, sortedKeys: Bool, htmlSafe: Bool = false, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int): writeInt(int, into: &out)
        case .double(let double):
            if !double.isFinite {
                out.append(contentsOf: "null".utf8)
            } else if double == double.rounded(), abs(double) < 1e15 {
                writeInt(Int(double), into: &out)
            } else if abs(double) < 1e9, case let micros = (double * 1e6).rounded(), micros / 1e6 == double {
                // Times and durations, to the microsecond: written from integers, without the general
                // shortest-digits conversion (the same double reads back, the nearest to these digits).
                writeMicros(Int(micros), into: &out)
            } else {
                out.append(contentsOf: "\(double)".utf8)
            }
        case .string(let string): writeString(string, htmlSafe: htmlSafe, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(element, sortedKeys: sortedKeys, htmlSafe: htmlSafe, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // Walked as stored (no key looked up again); sorted, the pairs are.
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, htmlSafe: htmlSafe, into: &out)
                out.append(UInt8(ascii: ":"))
                write(value, sortedKeys: sortedKeys, htmlSafe: htmlSafe, into: &out)
            }
            if sortedKeys {
                for (key, value) in members.sorted(by: { $0.key < $1.key }) { member(key, value) }
            } else {
                for (key, value) in members { member(key, value) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ string: String, htmlSafe: Bool = false, into out: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            // Counted first, so that the text is written in one pass into room made once, the runs between
            // escapes copied whole: a JSON body in a report has a quote every few bytes, and a 4 MB failure
            // reason crosses the worker pipe as one of these strings.
            let table = htmlSafe ? htmlSafeEscapes : escapes
            var extra = 0
            for byte in bytes { extra &+= Int(table[Int(byte)]) }
            out.append(UInt8(ascii: "\""))
            guard extra > 0 else {
                out.append(contentsOf: bytes)
                out.append(UInt8(ascii: "\""))
                return
            }
            let from = out.count
            out.append(contentsOf: repeatElement(0, count: bytes.count + extra))
            out.withUnsafeMutableBufferPointer { buffer in
                // Neither is empty: there is a byte to escape.
                guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
                var at = from
                var run = 0  // where the bytes not yet copied start
                for index in 0..<bytes.count where table[Int(bytes[index])] != 0 {
                    let byte = bytes[index]
                    if index > run {
                        (target + at).update(from: source + run, count: index - run)
                        at += index - run
                    }
                    run = index + 1
                    buffer[at] = UInt8(ascii: "\\")
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer[at + 1] = byte
                    case 0x0A: buffer[at + 1] = UInt8(ascii: "n")
                    case 0x0D: buffer[at + 1] = UInt8(ascii: "r")
                    case 0x09: buffer[at + 1] = UInt8(ascii: "t")
                    default:  // `\u00XX`: other control characters, and `<`, `>`, `&` when HTML-safe
                        buffer[at + 1] = UInt8(ascii: "u")
                        buffer[at + 2] = UInt8(ascii: "0")
                        buffer[at + 3] = UInt8(ascii: "0")
                        buffer[at + 4] = hexDigit(byte >> 4)
                        buffer[at + 5] = hexDigit(byte & 0xF)
                        at += 4
                    }
                    at += 2
                }
                if bytes.count > run {
                    (target + at).update(from: source + run, count: bytes.count - run)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// How many bytes escaping each byte adds in a JSON string: 1 for `"`, `\`, newline, return and tab,
    /// 5 for another control character (`\u00XX`), 0 for the rest.
    private static let escapes: [UInt8] = (0...255).map { byte in
        switch byte {
        case 0x22, 0x5C, 0x0A, 0x0D, 0x09: 1
        case 0..<0x20: 5
        default: 0
        }
    }

    /// ``escapes`` with `<`, `>` and `&` written as `\u00XX` too.
    private static let htmlSafeEscapes: [UInt8] = (0...255).map { byte in
        [0x3C, 0x3E, 0x26].contains(byte) ? 5 : escapes[byte]
    }

    /// `micros` millionths as a decimal: `-0.0125` for -12,500, trailing zeros left out.
    private static func writeMicros(_ micros: Int, into out: inout [UInt8]) {
        if micros < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = micros.magnitude
        TextBytes.appendDigits(of: magnitude / 1_000_000, to: &out)
        var fraction = magnitude % 1_000_000
        guard fraction > 0 else { return }
        out.append(UInt8(ascii: "."))
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        TextBytes.appendDigits(of: fraction, atLeast: digits, to: &out)
    }

    /// An integer in decimal, its digits written straight into `out` (no `String` made of them: every number
    /// of every document goes through here).
    static func writeInt(_ value: Int, into out: inout [UInt8]) {
        TextBytes.appendDecimal(value, to: &out)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
