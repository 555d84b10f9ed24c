import Diagnostics
import Testing

struct SourceTextTests {
    @Test func findsEveryLineWithoutItsBreak() {
        let source = SourceText("a: 1\r\nb: 2\n\nlast")
        #expect(source.line(1) == "a: 1")
        #expect(source.line(2) == "b: 2")
        #expect(source.line(3) == "")
        #expect(source.line(4) == "last")
        #expect(source.line(5) == nil)
        #expect(source.line(0) == nil)
        #expect(SourceText("").line(1) == "")
        #expect(SourceText("ünï\ncode ✓\n").line(2) == "code ✓")
    }

    /// A diagnostic's source line of a CRLF file has no `\r`, and its caret counts characters.
    @Test func aCRLFFileRendersCleanly() {
        let diagnostic = Diagnostic(
            "Oops.",
            at: SourceLocation(file: "a.yml", line: 2, column: 4),
            in: SourceText("x\r\nab✓d\r\n")
        )
        #expect(diagnostic.description == "a.yml:2:4: error: Oops.\nab✓d\n   ^")
    }

    /// 8,000 errors of one file share one line index; each gets its own line (the speed is measured by
    /// scenario-bench's `load`, not here).
    @Test func eightThousandErrorsOfOneFileShareOneIndex() {
        let text = (1...8000).map { "      - unknown step \($0)" }.joined(separator: "\n")
        let source = SourceText(text)
        let diagnostics = (1...8000).map {
            Diagnostic("Unknown step.", at: SourceLocation(file: "a.yml", line: $0, column: 9), in: source)
        }
        #expect(diagnostics[7999].sourceLine == "      - unknown step 8000")
        let list = DiagnosticList(diagnostics)
        #expect(list.diagnostics.count == 8000)
        #expect(list.description.hasSuffix("… and 7,900 more errors"))
    }
}

struct DiagnosticListCapTests {
    static func list(_ count: Int) -> DiagnosticList {
        DiagnosticList(
            (1...count).map {
                Diagnostic(location: .init(file: "a.yml", line: $0, column: 1), message: "No.", sourceLine: nil)
            }
        )
    }

    @Test func showsTheFirstHundredThenACount() {
        let lines = Self.list(250).description.split(separator: "\n")
        #expect(lines.count == 101)
        #expect(lines[99] == "a.yml:100:1: error: No.")
        #expect(lines[100] == "… and 150 more errors")
    }

    @Test func aHundredOrFewerAreAllShown() {
        #expect(Self.list(100).description.split(separator: "\n").count == 100)
        #expect(Self.list(101).description.hasSuffix("a.yml:100:1: error: No.\n… and 1 more error"))
    }

    @Test func countsAreGroupedByThousands() {
        #expect(0.groupedDigits == "0")
        #expect(999.groupedDigits == "999")
        #expect(1000.groupedDigits == "1,000")
        #expect(67_108_864.groupedDigits == "67,108,864")
        #expect((-1_234_567).groupedDigits == "-1,234,567")
    }
}
