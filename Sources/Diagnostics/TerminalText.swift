/// The one way text from a user's files or an app (scenario names, failure reasons, logs) is put on a
/// terminal: control characters are shown, never obeyed — an OSC sequence in a scenario name must not
/// set the window title, a CSI one must not clear the screen or move the cursor, `\b` must not erase
/// what was printed. Used by the headless reporter, the summary after the live runner and the live
/// runner's cells alike.
///
/// ```swift
/// TerminalText.escaped("a\u{1B}]0;pwned\u{07}b")   // "a^[]0;pwned^Gb"
/// ```
package enum TerminalText {
    /// `text` with every control character in caret notation, as ncurses shows them: C0 as `^@`…`^_`
    /// (ESC is `^[`), DEL as `^?`, C1 (U+0080…U+009F, the 8-bit CSI among them) as `~@`…`~_`. A line
    /// break and a tab are kept when `keepingLineBreaks` (a reason's lines stay lines), else shown too.
    package static func escaped(_ text: String, keepingLineBreaks: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: caretNotation(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// Whether `scalar` is a control character a terminal would act on.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// How a control character is shown: `^[`, `^?`, `~[`.
    package static func caretNotation(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x7F: return "^?"
        case 0x80...0x9F: return "~" + String(Character(Unicode.Scalar(UInt8(scalar.value - 0x80 + 0x40))))
        default: return "^" + String(Character(Unicode.Scalar(UInt8(truncatingIfNeeded: scalar.value + 0x40))))
        }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        guard isControl(scalar) else { return false }
        return !(keepingLineBreaks && (scalar == "\n" || scalar == "\t"))
    }

    /// How many terminal columns `character` takes: 2 for East Asian wide and fullwidth characters
    /// (CJK, Hangul, fullwidth forms, most emoji), else 1. The locale's `wcwidth` is not used: the
    /// live runner's tests render without a UTF-8 locale, and the answer must not depend on it.
    package static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x1100 else { return 1 }
        for range in wideRanges where range.contains(scalar.value) { return 2 }
        return 1
    }

    /// Unicode's East Asian Width W and F ranges, coarsely (the blocks, not every code point).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
