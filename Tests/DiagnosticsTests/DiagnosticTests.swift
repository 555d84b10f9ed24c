import Diagnostics
import Testing

struct DiagnosticTests {
    @Test func rendersCompilerStyleWithCaret() {
        let text = "scenarios:\n  - stub rout: x\n"
        let diagnostic = Diagnostic(
            "Unknown step 'stub rout'. Did you mean 'stub route'?",
            at: SourceLocation(file: "a.yml", line: 2, column: 5),
            in: text
        )
        #expect(
            diagnostic.description == """
                a.yml:2:5: error: Unknown step 'stub rout'. Did you mean 'stub route'?
                  - stub rout: x
                    ^
                """
        )
    }

    @Test func listSortsByFileThenLine() {
        let list = DiagnosticList([
            Diagnostic(location: .init(file: "b.yml", line: 1, column: 1), message: "two", sourceLine: nil),
            Diagnostic(location: .init(file: "a.yml", line: 9, column: 1), message: "one", sourceLine: nil),
        ])
        #expect(list.description == "a.yml:9:1: error: one\nb.yml:1:1: error: two")
    }

    @Test func suggestsNearestNames() {
        let names = ["stub route", "suspend queue", "stub reachability", "expect response"]
        #expect(Suggestions.nearest(to: "stub rout", in: names).first == "stub route")
        #expect(Suggestions.didYouMean("STUB ROUTE", in: names) == " Did you mean 'stub route'?")
        #expect(Suggestions.didYouMean("zzzzzzzzzz", in: names) == "")
    }
}

@Suite struct DurationTextTests {
    @Test(arguments: [
        (Duration.milliseconds(12), "0.012", "0.012"),
        (.seconds(10), "10.000", "10.0"),
        (.milliseconds(250), "0.250", "0.25"),
        (.microseconds(12_500), "0.013", "0.013"),  // half a millisecond rounds up
        (.microseconds(499), "0.000", "0.0"),
        (.nanoseconds(59_999_600_000), "60.000", "60.0"),
        (.milliseconds(-5), "0.000", "0.0"),
        (.milliseconds(1_234_567), "1234.567", "1234.567"),
        (.milliseconds(100_001), "100.001", "100.001"),
        (.seconds(86_400), "86400.000", "86400.0"),
    ])
    func secondsAreWrittenWithThreeDecimalsOrTrimmed(duration: Duration, fixed: String, short: String) {
        #expect(duration.fixedSeconds == fixed)
        #expect(duration.shortSeconds == short)
    }
}

/// Issue 27: durations between 0 and half a millisecond were read as 0 (`retry interval: 0.0001` busy-spun,
/// `step timeout: 0.0001` failed every set-up); a positive duration is at least a millisecond.
struct CheckedSecondsTests {
    @Test func aPositiveDurationIsAtLeastAMillisecond() {
        #expect(Duration(checkedSeconds: 0.0001) == .milliseconds(1))
        #expect(Duration(checkedSeconds: 0.0004) == .milliseconds(1))
        #expect(Duration(checkedSeconds: 0) == .zero)
        #expect(Duration(checkedSeconds: 0.0125) == .milliseconds(13))
        #expect(Duration(checkedSeconds: -1) == nil)
        #expect(Duration(checkedSeconds: 86_400.5) == nil)
    }

    /// The bounded edit distance is the distance when it is within the limit and `nil` past it, for
    /// every pair of a set of near and far texts; a name far longer than any candidate is never compared
    /// (20,000 unknown steps in one file: 11.4 s in debug before, 3.2 s after).
    @Test func boundedEditDistanceAgreesWithTheFullOne() {
        let texts = ["", "a", "ab", "stub route", "stub rout", "stub-route", "suspend queue", "expect request", "xyz"]
        for a in texts {
            for b in texts {
                let full = Suggestions.editDistance(a, b)
                for limit in 0...12 {
                    let bounded = Suggestions.editDistance(
                        Array(a.unicodeScalars),
                        Array(b.unicodeScalars),
                        limit: limit
                    )
                    #expect(bounded == (full <= limit ? full : nil), "\(a) / \(b) within \(limit)")
                }
            }
        }
        let long = String(repeating: "stub route ", count: 6_000)
        #expect(Suggestions.nearest(to: long, in: ["stub route", "wait"]).isEmpty)
        #expect(Suggestions.nearest(to: "route", in: ["stub route", "wait"]) == ["stub route"])
    }
}

/// A line built as bytes reads as the same line built as a string.
@Suite struct TextBytesTests {
    @Test func piecesAndNumbersReadAsAString() {
        var line = TextBytes(capacity: 4)
        line.append("✓ Café ")
        for number in [0, 7, 10, 305, -42, Int.max, Int.min] {
            line.append(number)
            line.append(" ")
        }
        line.append(fixedSeconds: .milliseconds(12))
        #expect(line.text == "✓ Café 0 7 10 305 -42 \(Int.max) \(Int.min) 0.012")
        #expect(TextBytes().text.isEmpty)
    }

    /// Digits are written from the last one up, into room for the longest number: every length, and the
    /// zeros a fixed width asks for, read as the number's own text.
    @Test func digitsOfEveryLengthAndWidth() {
        func digits(_ number: UInt, atLeast count: Int = 1) -> String {
            var bytes: [UInt8] = [UInt8(ascii: "<")]
            TextBytes.appendDigits(of: number, atLeast: count, to: &bytes)
            return String(decoding: bytes.dropFirst(), as: UTF8.self)
        }
        var power: UInt = 1
        for _ in 0..<19 {
            for number in [power - 1, power, power + 1, power * 9] {
                #expect(digits(number) == String(number))
            }
            power *= 10
        }
        #expect(digits(.max) == "18446744073709551615")
        #expect(digits(5, atLeast: 3) == "005")
        #expect(digits(12345, atLeast: 3) == "12345")
        #expect(digits(0, atLeast: 0) == "0")
        #expect(digits(0, atLeast: 25) == String(repeating: "0", count: 19))
        var bytes: [UInt8] = []
        TextBytes.appendDecimal(Int.min, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\(Int.min)")
    }

    /// Digits read back as the number they write; anything but digits, nothing, or a number past
    /// `UInt64.max` is none.
    @Test func digitsReadBackAndNothingElse() {
        for number: UInt in [0, 7, 10, 305, UInt(UInt64.max)] {
            var bytes: [UInt8] = []
            TextBytes.appendDigits(of: number, to: &bytes)
            #expect(TextBytes.decimal(Substring(decoding: bytes, as: UTF8.self).utf8) == UInt64(number))
        }
        #expect(TextBytes.decimal("007"[...].utf8) == 7)
        for text in ["", "+1", "-1", " 1", "1 ", "1.0", "1e3", "١", "18446744073709551616", "99999999999999999999"] {
            #expect(TextBytes.decimal(text[...].utf8) == nil, "\(text)")
        }
    }
}
