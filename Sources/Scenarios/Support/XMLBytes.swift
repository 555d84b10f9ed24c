import Diagnostics

/// XML written as UTF-8 bytes, text escaped as it is appended: how a report renders an element (JUnit's
/// `testcase`, one per scenario of a run) without a `String` for each of its pieces.
///
/// Escaping drops what XML 1.0 cannot hold (controls but tab, newline and return; U+FFFE, U+FFFF) and
/// writes the five markup characters as entities, and in attributes tab, newline and return as character
/// references; every other byte is copied as it is, a run of them at a time.
///
/// ```swift
/// var xml = XMLBytes()
/// xml.append("<failure message=\"")
/// xml.append(escaping: "got 422 & \"Invalid\"", attribute: true)
/// xml.append("\"/>")
/// xml.string      // <failure message="got 422 &amp; &quot;Invalid&quot;"/>
/// ```
struct XMLBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes as text.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Markup, as written.
    mutating func append(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text that needs no escaping (a number, a time), as it is.
    mutating func append(unescaped text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Bytes rendered before (an element), as they are.
    mutating func append(bytes more: ArraySlice<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// An integer in decimal.
    mutating func append(_ number: Int) {
        TextBytes.appendDecimal(number, to: &bytes)
    }

    /// Text escaped for an attribute's value (`attribute`) or for element content.
    mutating func append(escaping text: String, attribute: Bool = false) {
        var text = text
        text.withUTF8 { source in
            var runStart = 0
            var index = 0
            while index < source.count {
                let byte = source[index]
                // Most bytes are kept: looked at once, copied with their run.
                guard byte < 0x20 || byte == 0xEF || Self.isMarkup(byte) else {
                    index += 1
                    continue
                }
                if byte == 0xEF {
                    // U+FFFE or U+FFFF (EF BF BE, EF BF BF) are dropped; any other character starting with EF is kept.
                    guard index + 2 < source.count, source[index + 1] == 0xBF, source[index + 2] & 0xFE == 0xBE else {
                        index += 1
                        continue
                    }
                    appendRun(source, runStart..<index)
                    index += 3
                    runStart = index
                    continue
                }
                appendRun(source, runStart..<index)
                index += 1
                runStart = index
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                case UInt8(ascii: ">"): append("&gt;")
                case UInt8(ascii: "\""): append("&quot;")
                case UInt8(ascii: "'"): append("&apos;")
                case 0x09, 0x0A, 0x0D:
                    if attribute {
                        append("&#")
                        append(Int(byte))
                        append(";")
                    } else {
                        bytes.append(byte)
                    }
                default:
                    break  // another control: dropped
                }
            }
            appendRun(source, runStart..<index)
        }
    }

    private mutating func appendRun(_ source: UnsafeBufferPointer<UInt8>, _ run: Range<Int>) {
        guard !run.isEmpty else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[run]))
    }

    private static func isMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }
}
