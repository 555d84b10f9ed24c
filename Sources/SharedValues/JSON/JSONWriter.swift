/// Writes JSON text without `JSONEncoder`: keys sorted or in dictionary order, `/` unescaped.
enum JSONWriter {
    /// `value` as JSON text at the end of `out`; `htmlSafe` writes `<`, `>` and `&` in strings as `\u003c`,
    /// `\u003e`, `\u0026`, so that the text can sit in an HTML `<script>` block (nothing can end it).
    static func write(_ value: JSONValue, sortedKeys: Bool, htmlSafe: Bool = false, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int): out.append(contentsOf: String(int).utf8)
        case .double(let double):
            if !double.isFinite {
                out.append(contentsOf: "null".utf8)
            } else if double == double.rounded(), abs(double) < 1e15 {
                out.append(contentsOf: String(Int(double)).utf8)
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
            // Counted first, so that the text is written in one pass into room made once: a JSON body in a
            // report has a quote every few bytes, and a 4 MB failure reason crosses the worker pipe as one
            // of these strings.
            var extra = 0
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || htmlSafe
            {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: extra += 1
                case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): extra += 5
                default: break
                }
            }
            out.append(UInt8(ascii: "\""))
            guard extra > 0 else {
                out.append(contentsOf: bytes)
                out.append(UInt8(ascii: "\""))
                return
            }
            var at = out.count
            out.append(contentsOf: repeatElement(0, count: bytes.count + extra))
            out.withUnsafeMutableBufferPointer { buffer in
                func put(_ byte: UInt8) {
                    buffer[at] = byte
                    at += 1
                }
                func unicode(_ byte: UInt8) {  // `\u00XX`
                    put(UInt8(ascii: "\\"))
                    put(UInt8(ascii: "u"))
                    put(UInt8(ascii: "0"))
                    put(UInt8(ascii: "0"))
                    put(hexDigit(byte >> 4))
                    put(hexDigit(byte & 0xF))
                }
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                        put(UInt8(ascii: "\\"))
                        put(byte)
                    case 0x0A:
                        put(UInt8(ascii: "\\"))
                        put(UInt8(ascii: "n"))
                    case 0x0D:
                        put(UInt8(ascii: "\\"))
                        put(UInt8(ascii: "r"))
                    case 0x09:
                        put(UInt8(ascii: "\\"))
                        put(UInt8(ascii: "t"))
                    case 0..<0x20:
                        unicode(byte)
                    case UInt8(ascii: "<") where htmlSafe, UInt8(ascii: ">") where htmlSafe,
                        UInt8(ascii: "&") where htmlSafe:
                        unicode(byte)
                    default: put(byte)
                    }
                }
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// `micros` millionths as a decimal: `-0.0125` for -12,500, trailing zeros left out.
    private static func writeMicros(_ micros: Int, into out: inout [UInt8]) {
        if micros < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = micros.magnitude
        out.append(contentsOf: String(magnitude / 1_000_000).utf8)
        var fraction = magnitude % 1_000_000
        guard fraction > 0 else { return }
        out.append(UInt8(ascii: "."))
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor: UInt = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
