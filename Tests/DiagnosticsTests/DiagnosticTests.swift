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
