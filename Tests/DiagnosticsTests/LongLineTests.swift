import Testing

@testable import Diagnostics

/// Diagnostics on long lines: the line is shared with the file's text, and printed as a window of 160
/// characters around the caret.
struct LongLineTests {
    @Test func aShortLineIsPrintedWhole() {
        let source = SourceText("a: 1\nsteps: [nope]\n")
        let diagnostic = Diagnostic(
            "Unknown step 'nope'.",
            at: SourceLocation(file: "f.yml", line: 2, column: 9),
            in: source
        )
        #expect(diagnostic.description == "f.yml:2:9: error: Unknown step 'nope'.\nsteps: [nope]\n        ^")
    }

    @Test func aLongLineIsCutAroundTheCaret() {
        let line = String(repeating: "a", count: 500) + "X" + String(repeating: "b", count: 500)
        let source = SourceText(line + "\n")
        let diagnostic = Diagnostic("Here.", at: SourceLocation(file: "f.yml", line: 1, column: 501), in: source)
        let lines = diagnostic.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        // A third of the window before the caret (53 characters), the rest after; both ends cut.
        #expect(lines[1] == "…" + String(repeating: "a", count: 53) + "X" + String(repeating: "b", count: 106) + "…")
        #expect(lines[2] == String(repeating: " ", count: 54) + "^")
    }

    @Test func theStartAndTheEndOfALongLineAreCutOnOneSide() {
        let line = String(repeating: "c", count: 1000)
        let source = SourceText(line)
        let start = Diagnostic("Start.", at: SourceLocation(file: "f", line: 1, column: 1), in: source)
        #expect(start.description.split(separator: "\n")[1] == String(repeating: "c", count: 160) + "…")
        let end = Diagnostic("End.", at: SourceLocation(file: "f", line: 1, column: 1000), in: source)
        let shown = end.description.split(separator: "\n")
        #expect(shown[1] == "…" + String(repeating: "c", count: 160))
        #expect(shown[2] == String(repeating: " ", count: 160) + "^")
    }

    @Test func diagnosticsOfOneFileShareItsText() {
        let source = SourceText(String(repeating: "x", count: 1_000_000))
        let many = (1...1000).map {
            Diagnostic("E.", at: SourceLocation(file: "f", line: 1, column: $0), in: source)
        }
        // Equal lines, one text: a copy each would be a gigabyte.
        #expect(many.allSatisfy { $0.sourceLine?.utf8.count == 1_000_000 })
        #expect(many[0] == Diagnostic("E.", at: SourceLocation(file: "f", line: 1, column: 1), in: source))
    }

    @Test func messagesShowControlCharacters() {
        let diagnostic = Diagnostic(
            location: SourceLocation(file: "f", line: 1, column: 1),
            message: "Bad '\u{1B}[2J'.",
            sourceLine: nil
        )
        #expect(diagnostic.description == "f:1:1: error: Bad '^[[2J'.")
    }
}
