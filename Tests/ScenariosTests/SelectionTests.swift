import Diagnostics
import Foundation
import Scenarios
import Testing

struct SelectionTests {
    let scenarios = [
        Scenario(
            name: "Posting a review",
            tags: ["reviews"],
            location: SourceLocation(file: "a.yml", line: 1, column: 1),
            feature: "A",
            file: "a.yml",
            steps: []
        ),
        Scenario(
            name: "Rejected review",
            tags: ["reviews", "errors"],
            location: SourceLocation(file: "a.yml", line: 5, column: 1),
            feature: "A",
            file: "a.yml",
            steps: []
        ),
        Scenario(
            name: "Listing restaurants",
            tags: ["restaurants"],
            location: SourceLocation(file: "b.yml", line: 1, column: 1),
            feature: "B",
            file: "b.yml",
            steps: []
        ),
    ]

    @Test func filtersByNameTagsAndFailures() throws {
        #expect(try ScenarioSelection().select(scenarios).count == 3)
        #expect(
            try ScenarioSelection(filter: "[Rr]eview$").select(scenarios).map(\.name) == [
                "Posting a review", "Rejected review",
            ]
        )
        #expect(
            try ScenarioSelection(tags: ["errors", "restaurants"]).select(scenarios).map(\.name) == [
                "Rejected review", "Listing restaurants",
            ]
        )
        #expect(
            try ScenarioSelection(filter: "review", rerunFailed: [FailureState.key(scenarios[1].id)]).select(scenarios)
                .map(\.name) == ["Rejected review"]
        )
    }

    /// `--filter` ignores case, as the live runner's `/` filter does (DECISIONS 136).
    @Test func theFilterIgnoresCase() throws {
        #expect(try ScenarioSelection(filter: "^posting").select(scenarios).map(\.name) == ["Posting a review"])
        #expect(try ScenarioSelection(filter: "REJECTED|listing").select(scenarios).count == 2)
    }

    @Test func invalidFilterIsAnError() {
        #expect(throws: ScenarioSelectionError.invalidFilter("(")) { try ScenarioSelection(filter: "(") }
    }

    @Test func failureStateRoundTripsAndStartsEmpty() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let state = FailureState(projectDirectory: root)
        #expect(try state.load().isEmpty)
        let a = ScenarioID(file: "Scenarios/x.yml", name: "A")
        let b = ScenarioID(file: "Scenarios/y.yml", name: "A")
        try state.save([b, a])
        #expect(try state.load() == [a, b])
        // An earlier version's bare names still load: a name in any file.
        try Data(#"{"failed": ["A"]}"#.utf8).write(to: state.url)
        #expect(try state.load() == [ScenarioID(file: "", name: "A")])
        #expect(state.url.path.hasSuffix(".scenario-run/last-failed.json"))
        try state.save([])
        #expect(try state.load().isEmpty)
    }

    @Test func aRunKeepsThePreviousFailuresItDidNotRunAgain() {
        // "B" passed this time, "C" was filtered out, "D" failed now.
        let id = { ScenarioID(file: "x.yml", name: $0) }
        let kept = FailureState.merged(
            previous: [id("B"), id("C")],
            ran: [id("A"), id("B"), id("D")],
            failed: [id("D")]
        )
        #expect(kept == [id("C"), id("D")])
    }
}

/// Issue 27: `--tag` with thousands of nested parentheses or `not`s crashed the process (recursion without
/// a limit); now a bounded, clear error.
struct TagExpressionBoundsTests {
    @Test func deepNestingAndTooManyWordsAreErrorsNotCrashes() throws {
        let parentheses = String(repeating: "(", count: 2_600) + "@a" + String(repeating: ")", count: 2_600)
        #expect(throws: TagExpressionError.self) { try TagExpression(parsing: parentheses) }
        let nots = String(repeating: "not ", count: 14_000) + "@a"
        do {
            _ = try TagExpression(parsing: nots)
            Issue.record("14,000 nots parsed")
        } catch {
            #expect(error.description.hasSuffix("it has more than 1,000 words; select fewer tags."))
            #expect(error.description.count < 200, "the expression is cut in the message")
        }
        let deep = String(repeating: "not ", count: 65) + "@a"
        #expect(
            throws: TagExpressionError.malformed(deep, "'(' and 'not' nest more than 64 deep; write it more simply.")
        ) { try TagExpression(parsing: deep) }
        let fine = try TagExpression(parsing: String(repeating: "not ", count: 64) + "@a")
        #expect(fine.matches([]) == false)
    }
}
