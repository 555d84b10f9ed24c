import Diagnostics
import Foundation
import Testing
import YAMLSource

@testable import Scenarios

/// Loading a file one scenario at a time must be indistinguishable from composing the whole document:
/// the same scenarios at the same locations and the same diagnostics, for every file of the malformed
/// corpus and for valid files in every layout the cutter accepts; other layouts are not cut at all.
struct ScenarioFileChunksTests {
    static let plain = """
        # A comment before everything.
        feature: Reviews
        tags: [reviews]
        set up:
          - succeed

        scenarios:
          # a comment before the first item
          - scenario: First
            tags: [smoke]
            steps:
              - stub route: { class: Review, method: POST, to: /review }
              - expect response: { status: 201 }
        # a comment at the top between items
          - scenario: Second
            steps:
              - fail: |
                  A block scalar
                  - that looks like an item
                  scenario: and a key
              - stub route:
                  class: Review
                  method: POST
                  to: "/review"
          - scenario: "Third, quoted"
            steps: [succeed]
        description: after the list
        """

    /// What a load produced, comparable: ids, lines, tags, features, step descriptions and locations.
    struct Result: Equatable {
        var scenarios: [String]
        var diagnostics: [String]
    }

    /// A loader of `text` as the file `s.yml`, with the fake steps.
    static func loader(_ text: String) throws -> ScenarioFileLoader {
        ScenarioFileLoader(
            file: "s.yml",
            source: try YAMLText(checking: text),
            registry: FakeSteps.registry,
            buildContext: FakeSteps.buildContext
        )
    }

    static func load(_ text: String, whole: Bool) throws -> Result {
        var loader = try loader(text)
        let scenarios = whole ? loader.loadWholeDocument() : loader.load()
        return Result(
            scenarios: scenarios.map { scenario in
                "\(scenario.id) @\(scenario.location)-\(scenario.lastLine) "
                    + "[\(scenario.feature)] \(scenario.tags.sorted()) skip: \(scenario.skip ?? "-") "
                    + (scenario.setUp + scenario.steps + scenario.tearDown).map {
                        "\($0.description)@\($0.location.map(\.description) ?? "-")"
                            + ($0.timeout.map { " within \($0)" } ?? "")
                    }
                    .joined(separator: " | ")
            },
            diagnostics: loader.diagnostics.kept.map(\.description)
        )
    }

    @Test func thePlainLayoutIsCutIntoKeysAndScenarios() throws {
        let chunks = try #require(ScenarioFileChunks(Self.plain))
        #expect(chunks.keys.map(\.lineOffset) == [1, 2, 3, 26])
        #expect(chunks.scenarios.map(\.lineOffset) == [8, 14, 24])
        #expect(Self.plain[chunks.scenarios[2].range] == "  - scenario: \"Third, quoted\"\n    steps: [succeed]\n")
    }

    @Test func cutAndWholeLoadsAgreeOnAValidFile() throws {
        let text = Self.plain.replacingOccurrences(of: "description: after the list", with: "")
        let cut = try Self.load(text, whole: false)
        #expect(try cut == Self.load(text, whole: true))
        #expect(cut.scenarios.count == 3)
        #expect(cut.diagnostics.isEmpty, "\(cut.diagnostics)")
        var loader = try Self.loader(text)
        let chunks = try #require(ScenarioFileChunks(text))
        #expect(loader.load(chunks)?.count == 3, "read chunk by chunk, not through the whole document")
    }

    @Test func cutAndWholeLoadsReportTheSameProblems() throws {
        // An unknown top-level key after the list, an unknown step, a duplicate scenario.
        let text = Self.plain.replacingOccurrences(
            of: "description: after the list",
            with: "  - scenario: First\n    steps: [succed]\ndescription: after the list"
        )
        let cut = try Self.load(text, whole: false)
        #expect(try cut == Self.load(text, whole: true))
        #expect(cut.diagnostics.count == 3, "\(cut.diagnostics)")
    }

    @Test(arguments: LoaderCorpusTests.names)
    func cutAndWholeLoadsAgreeOnEveryMalformedFile(_ name: String) throws {
        let url = Snapshot.testsDirectory.appendingPathComponent("Malformed/\(name).yml")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(try Self.load(text, whole: false) == Self.load(text, whole: true))
    }

    @Test(arguments: [
        "{ scenarios: [ { scenario: A, steps: [succeed] } ] }",
        "\"scenarios\":\n  - scenario: A\n    steps: [succeed]\n",
        "---\nscenarios:\n  - scenario: A\n    steps: [succeed]\n",
        "scenarios: [ { scenario: A, steps: [succeed] } ]\n",
        "scenarios:\n  - scenario: A\n    steps: [succeed]\nscenarios:\n  - scenario: B\n    steps: [succeed]\n",
        "scenarios:\n\t- scenario: A\n",
        "scenarios:\n",
        "feature: X\n",
    ])
    func otherLayoutsAreNotCut(_ text: String) throws {
        #expect(ScenarioFileChunks(text) == nil)
        #expect(try Self.load(text, whole: false) == Self.load(text, whole: true))
    }

    @Test func itemsAtTheKeysIndentationAndWindowsLineBreaksAreCut() throws {
        let text =
            "feature: F\r\nscenarios:\r\n- scenario: A\r\n  steps: [succeed]\r\n- scenario: B\r\n  steps: [succeed]\r\n"
        let chunks = try #require(ScenarioFileChunks(text))
        #expect(chunks.scenarios.count == 2)
        let cut = try Self.load(text, whole: false)
        #expect(try cut == Self.load(text, whole: true))
        #expect(cut.scenarios.count == 2)
    }

    @Test func anAliasToAnAnchorInAnotherScenarioFallsBackToTheWholeDocument() throws {
        let text = """
            scenarios:
              - scenario: A
                steps: &shared [succeed]
              - scenario: B
                steps: *shared
            """
        let cut = try Self.load(text, whole: false)
        #expect(try cut == Self.load(text, whole: true))
        #expect(cut.scenarios.count == 2 && cut.diagnostics.isEmpty)
    }

    /// Whether a text is ASCII is found while it is checked: it decides whether a step's span is counted in
    /// bytes (libyaml counts characters).
    @Test func aTextIsASCIIOnlyWhenEveryByteIs() throws {
        #expect(try YAMLText(checking: "scenarios:\n  - scenario: A\n").isASCII)
        #expect(try YAMLText(checking: "").isASCII)
        #expect(try !YAMLText(checking: "scenarios:\n  - scenario: Café\n").isASCII)
        #expect(try !YAMLText(checking: "a: 🙂").isASCII)
        let marked = try YAMLText(checking: "\u{FEFF}a: b")
        #expect(marked.bytesBeforeText == 3 && marked.isASCII, "the byte-order mark is not part of the text")
    }

    /// A part ends after its last line's line break: a block scalar on a file's last line keeps its final
    /// line break, as in the whole document.
    @Test func aBlockScalarOnTheLastLineKeepsItsLineBreak() throws {
        let text = "feature: F\nscenarios:\n  - scenario: A\n    steps:\n      - fail: |\n          text\n"
        let cut = try Self.load(text, whole: false)
        #expect(try cut == Self.load(text, whole: true))
        #expect(cut.scenarios.first?.contains("fail: text\n@") == true, "\(cut.scenarios)")
    }

    // MARK: Known step lines (DECISIONS 198)

    /// Scenarios that repeat the first one's steps, in every way a line can be written again.
    static let repeated = """
        scenarios:
          - scenario: First
            steps:
              - stub route: { class: Review, method: POST, to: /review }
              - expect response: { status: 201 }
          - scenario: Second
            steps:
              -   stub route: { class: Review, method: POST, to: /review }   \r
              - expect response: { status: 201 }
                timeout: 7
              - expect response: {status: 201}
          - scenario: Third
            tags: [t]
            steps: [succeed, expect response: { status: 201 }]
        """

    /// The lines of later scenarios written as a step of the first one was are composed without their
    /// arguments, and load exactly as the whole document does: steps, lines, columns, timeouts.
    @Test func linesWrittenAsAKnownStepLoadAsTheWholeDocument() throws {
        let cut = try Self.load(Self.repeated, whole: false)
        #expect(try cut == Self.load(Self.repeated, whole: true))
        #expect(cut.diagnostics.isEmpty && cut.scenarios.count == 3, "\(cut)")
        #expect(
            cut.scenarios[1].hasSuffix(
                "stub route {class: Review, method: POST, to: /review}@s.yml:8:11 | expect response {status: 201}@s.yml:9:9"
                    + " within 7.0 seconds | expect response {status: 201}@s.yml:11:9"
            ),
            "\(cut.scenarios[1])"
        )

        var loader = try Self.loader(Self.repeated)
        let chunks = try #require(ScenarioFileChunks(Self.repeated))
        #expect(loader.load(chunks)?.count == 3)
        let second = try #require(loader.leavingOutKnownLines(of: Self.repeated[chunks.scenarios[1].range]))
        #expect(
            second.text == """
                  - scenario: Second
                    steps:
                      -   stub route: {}   \r
                      - expect response: {}
                        timeout: 7
                      - expect response: {status: 201}

                """
        )
        #expect(
            second.leftOut.values.map(\.text).sorted() == [
                "{ class: Review, method: POST, to: /review }", "{ status: 201 }",
            ]
        )
        #expect(
            loader.leavingOutKnownLines(of: Self.repeated[chunks.scenarios[2].range]) == nil,
            "a step inside a flow list is not a line of its own"
        )
    }

    /// A line that reads like a known step but is not one — inside a block scalar, a quoted text that
    /// spans lines, an outline, a key that is not `steps` — is composed as written: the part is composed
    /// again when a left-out text does not come back as a step's arguments.
    @Test(arguments: [
        "  - scenario: B\n    steps:\n      - fail: |\n          - stub route: { class: Review, method: POST, to: /review }\n",
        "  - scenario: B\n    steps:\n      - fail: |\n      - stub route: { class: Review, method: POST, to: /review }\n",
        "  - scenario: B\n    steps:\n      - fail: \"a\n      - stub route: { class: Review, method: POST, to: /review }\n        \"\n",
        "  - scenario: B\n    skip:\n      - stub route: { class: Review, method: POST, to: /review }\n    steps: [succeed]\n",
        "  - scenario: B\n    steps:\n      - timeout: { class: Review, method: POST, to: /review }\n        stub route: { class: Review, method: POST, to: /review }\n",
        "  - scenario: B ${to}\n    examples:\n      - stub route: { class: Review, method: POST, to: /review }\n        to: x\n    steps:\n      - stub route: { class: Review, method: POST, to: /review }\n",
        "  - scenario: B ${to}\n    \"examples\":\n      - { to: x }\n    steps:\n      - stub route: { class: Review, method: POST, to: /review }\n      - stub route: { class: Review, method: POST, to: \"${to}\" }\n",
        "  - scenario: B\n    steps:\n      - stub route: { class: Review, method: POST, to: /review } # a comment\n",
        "  - scenario: B\n    steps:\n      - stub route: { class: Review, method: POST, to: /review }}\n",
        "  - scenario: B\n    steps:\n      - stub route: { class: Review, method: POST, to: /review }\n        - stub route: { class: Review, method: POST, to: /review }\n",
    ])
    func aLineThatOnlyLooksLikeAKnownStepIsComposedAsWritten(_ second: String) throws {
        let text = """
            scenarios:
              - scenario: A
                steps:
                  - stub route: { class: Review, method: POST, to: /review }

            """ + second
        let cut = try Self.load(text, whole: false)
        let whole = try Self.load(text, whole: true)
        #expect(cut == whole, "\(cut) \(whole)")
    }

    /// Where names are bound before it, a left-out step is built from its arguments as written, at their
    /// place: what a name bound changes is what it is.
    @Test func aKnownLineAfterANameIsBoundIsReadAsWritten() throws {
        let text = """
            scenarios:
              - scenario: A
                steps:
                  - stub route: { class: Review, method: POST, to: /review }
                  - stub route: { class: Review, method: PUT, to: /review }
              - scenario: B
                steps:
                  - create from factory: { factory: review, as: r }
                  - stub route: { class: Review, method: POST, to: /review }
                  - stub route: { class: Review, method: PUT, to: /review }
            """
        let cut = try Self.load(text, whole: false)
        #expect(try cut == Self.load(text, whole: true))
        #expect(cut.scenarios.count == 2 && cut.diagnostics.count == 2, "\(cut)")
        #expect(cut.diagnostics.allSatisfy { $0.contains("Review PUT") }, "\(cut.diagnostics)")
    }

}
