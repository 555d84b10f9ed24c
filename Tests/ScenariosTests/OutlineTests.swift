import Diagnostics
import Foundation
import Scenarios
import Testing

/// Scenario outlines (`examples:`), and the other keys of issue 23: a file's `tear down`, `skip:` and a
/// step's own `timeout:`.
struct OutlineTests {
    static let outline = """
        set up:
          - create from factory: { factory: restaurant, as: place }
        scenarios:
          - scenario: Posting answers ${status}
            examples:
              - { to: /review, status: 201 }
              - { to: /422, status: 422 }
            steps:
              - stub route: { class: Review, method: POST, to: "${to}" }
              - log: "${place.factory} got ${status} from ${to}"
              - expect response: { status: "${status}" }
          - scenario: Plain
            steps: [succeed]
        """

    /// The load's messages with their `LINE:COL`, for exact-text checks.
    func errors(_ text: String) -> [String] {
        do {
            _ = try FakeSteps.loader.load(yaml: text, file: "x.yml")
            return []
        } catch {
            return error.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        }
    }

    @Test func eachRowIsAScenarioNamedWithItsValues() throws {
        let scenarios = try FakeSteps.loader.load(yaml: Self.outline, file: "x.yml")
        #expect(scenarios.map(\.name) == ["Posting answers 201", "Posting answers 422", "Plain"])
        #expect(scenarios.map(\.location.line) == [6, 7, 12])
        #expect(scenarios[0].example == ExampleRow(outline: SourceLocation(file: "x.yml", line: 4, column: 5), row: 1))
        #expect(scenarios[1].example?.row == 2)
        #expect(scenarios[2].example == nil)
        #expect(
            scenarios[1].steps.map(\.description) == [
                "stub route {class: Review, method: POST, to: /422}",
                "log ${place.factory} got 422 from /422",
                "expect response {status: 422}",
            ]
        )
        #expect(scenarios[1].steps.map(\.location?.line) == [9, 10, 11])
        #expect(Set(scenarios.map(\.id)).count == 3)
    }

    @Test func rowsThatGiveOneNameAreNumbered() throws {
        let text = """
            scenarios:
              - scenario: Same
                examples: [{ n: 1 }, { n: 2 }]
                steps: [{ wait: "${n}" }]
            """
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "x.yml")
        #expect(scenarios.map(\.name) == ["Same [1]", "Same [2]"])
    }

    @Test func valuesAreCheckedWhereTheyLandAtTheRow() {
        let text = """
            scenarios:
              - scenario: Answers ${status}
                examples:
                  - { status: 201 }
                  - { status: lots }
                steps:
                  - expect response: { status: "${status}" }
            """
        // At the row's cell, in the step's own words.
        #expect(errors(text) == ["5:19: 'status' of step 'expect response' takes an integer, not 'lots'."])
    }

    @Test func outlineMistakesAreLocatedWithSuggestions() {
        let text = """
            set up:
              - create from factory: { factory: restaurant, as: place }
            scenarios:
              - scenario: Answers ${stat}
                examples:
                  - { status: 201, place: x, unused: 1 }
                  - { status: 422 }
                steps:
                  - expect response: { status: "${sttus}" }
                  - log: "${status.code}"
            """
        #expect(
            errors(text) == [
                "4:15: '${stat}' in a scenario name must be a column of 'examples'. Did you mean 'status'?",
                "6:24: Column 'place' has the name of an object bound with 'as: place'; '${place}' would be the column. Rename one of them.",
                "6:34: Column 'unused' is used by no step of 'Answers ${stat}'; use '${unused}' in a step or remove it.",
                "7:9: Row 2 has no 'place'; every row gives every column ('status', 'place', 'unused').",
                "7:9: Row 2 has no 'unused'; every row gives every column ('status', 'place', 'unused').",
                "9:36: '${sttus}' is neither a column of 'examples' nor a name bound with 'as:'. Did you mean 'status'?",
                "10:14: '${status.code}': 'status' is a column of 'examples', a plain value; write '${status}'.",
            ]
        )
    }

    @Test func aMistakeInASharedStepIsReportedOnce() {
        let text = """
            scenarios:
              - scenario: S ${n}
                examples: [{ n: 1 }, { n: 2 }, { n: 3 }]
                steps: [{ wiat: "${n}" }]
            """
        #expect(errors(text) == ["4:15: Unknown step 'wiat'. Did you mean 'wait'?"])
    }

    @Test func examplesMustBeRowsOfMappings() {
        #expect(
            errors("scenarios:\n  - scenario: S\n    examples: []\n    steps: [succeed]\n") == [
                "3:15: Outline 'S' has no rows; 'examples' is a list of mappings, one per scenario."
            ]
        )
        #expect(
            errors("scenarios:\n  - scenario: S\n    examples: [1]\n    steps: [succeed]\n") == [
                "3:16: An example row is a mapping from column names to values, like '{ to: /422, status: 422 }'."
            ]
        )
    }

    @Test func aRowNameThatRepeatsAnotherScenarioIsADuplicate() {
        let text = """
            scenarios:
              - scenario: Wait 1
                steps: [succeed]
              - scenario: Wait ${n}
                examples: [{ n: 1 }]
                steps: [{ wait: "${n}" }]
            """
        #expect(errors(text) == ["5:16: Duplicate scenario name 'Wait 1'; first used on line 2."])
    }

    @Test func fileTearDownSkipAndStepTimeout() throws {
        let text = """
            skip: the API is not there yet
            tear down:
              - log: "${place}"
            set up:
              - create from factory: { factory: restaurant, as: place }
            scenarios:
              - scenario: Own reason
                skip: flaky on Tuesdays
                steps:
                  - wait: 1
                    timeout: 2.5
              - scenario: File reason
                steps: [succeed]
            """
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "x.yml")
        #expect(scenarios.map(\.skip) == ["flaky on Tuesdays", "the API is not there yet"])
        #expect(scenarios.map { $0.tearDown.map(\.description) } == [["log ${place}"], ["log ${place}"]])
        #expect(scenarios[0].steps.first?.timeout == .milliseconds(2500))
        #expect(scenarios[1].steps.first?.timeout == nil)
    }

    @Test func badSkipAndTimeoutAreLocated() {
        let text = """
            scenarios:
              - scenario: S
                skip:
                steps:
                  - wait: 1
                    timeout: soon
            """
        #expect(
            errors(text) == [
                "3:10: 'skip' needs a reason, like 'skip: waiting for the new reviews API'.",
                "6:18: Invalid step timeout 'soon'; write a number of seconds greater than 0 and at most 86400, like 'timeout: 30'.",
            ]
        )
    }

    /// A name or a skip reason of spaces and tabs only — any Unicode space, as `.whitespaces` has it — is
    /// blank; one with any other character, a line break included, is not.
    @Test func blankNamesAndReasonsAreSpacesAndTabsOnly() throws {
        for blank in ["\" \"", "\"\\t \\t\"", "\"\u{3000}\\u00A0\""] {
            let text = "scenarios:\n  - scenario: \(blank)\n    steps: [succeed]\n"
            #expect(errors(text) == ["2:15: Empty scenario name; every scenario needs a name."], "\(blank)")
            let skipped = "scenarios:\n  - scenario: S\n    skip: \(blank)\n    steps: [succeed]\n"
            #expect(errors(skipped).count == 1, "\(blank)")
        }
        for named in ["\" a \"", "\"\\n\"", "\"\\t.\""] {
            let text = "scenarios:\n  - scenario: \(named)\n    skip: \(named)\n    steps: [succeed]\n"
            #expect(errors(text) == [], "\(named)")
        }
    }

    /// Issue 27: `skip: false` runs the scenario (it was taken as the reason "false"); `true` skips; YAML
    /// 1.1's `no`/`off` and numbers are errors, never a reason; a scenario's `false` overrides the file's.
    @Test func skipFalseRunsAndAmbiguousValuesAreErrors() throws {
        let text = """
            skip: the API is not there yet
            scenarios:
              - scenario: Runs
                skip: false
                steps: [succeed]
              - scenario: Skipped
                skip: true
                steps: [succeed]
              - scenario: Quoted
                skip: "no"
                steps: [succeed]
            """
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "x.yml")
        #expect(scenarios.map(\.skip) == [nil, "skip: true", "no"])
        let wrong = """
            scenarios:
              - scenario: A
                skip: no
                steps: [succeed]
              - scenario: B
                skip: 0
                steps: [succeed]
            """
        let message = { (text: String) in
            "'skip: \(text)' is not a reason; write 'skip: false' to run the scenario, or a reason to skip it, like 'skip: waiting for the new reviews API'."
        }
        #expect(errors(wrong) == ["3:11: " + message("no"), "6:11: " + message("0")])
    }

    /// Issue 27: `check` accepted file tags no `--tag` expression can select.
    @Test func unselectableTagsAreLocatedErrors() {
        let text = """
            tags: [two words, ok]
            scenarios:
              - scenario: S
                tags: ["a(b)", not, "@fine"]
                steps: [succeed]
            """
        let message = { (tag: String) in
            "Tag '\(tag)' could never be selected with --tag; a tag is one word without spaces or parentheses, and not 'and', 'or' or 'not'."
        }
        #expect(
            errors(text) == ["1:8: " + message("two words"), "4:12: " + message("a(b)"), "4:20: " + message("not")]
        )
    }

    /// Issue 27: an outline's `skip: "${column}"` is substituted per row (it was shown unsubstituted),
    /// and a row's `false` runs that row.
    @Test func outlineSkipIsSubstitutedPerRow() throws {
        let text = """
            scenarios:
              - scenario: Row ${n}
                skip: "${why}"
                examples:
                  - { n: 1, why: false }
                  - { n: 2, why: flaky on Tuesdays }
                steps:
                  - wait: "${n}"
              - scenario: Reason ${n}
                skip: "row ${n} is slow"
                examples:
                  - { n: 3 }
                steps:
                  - wait: "${n}"
            """
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "x.yml")
        #expect(scenarios.map(\.skip) == [nil, "flaky on Tuesdays", "row 3 is slow"])
        let unknown = """
            scenarios:
              - scenario: Row ${n}
                skip: "${wy}"
                examples:
                  - { n: 1, why: x }
                steps:
                  - wait: "${n}"
            """
        #expect(
            errors(unknown) == [
                "3:11: '${wy}' in an outline's 'skip' must be a column of 'examples'. Did you mean 'why' or 'n'?",
                "5:17: Column 'why' is used by no step of 'Row ${n}'; use '${why}' in a step or remove it.",
            ]
        )
    }

    @Test func outlinesLoadTheSameChunkedOrWhole() throws {
        // Flow style at the top sends the loader to the whole document; the block layout is chunked.
        let flow =
            "{ scenarios: [ { scenario: 'S ${n}', examples: [{ n: 1 }, { n: 2 }], steps: [{ wait: '${n}' }] } ] }"
        let whole = try FakeSteps.loader.load(yaml: flow, file: "x.yml")
        let chunked = try FakeSteps.loader.load(
            yaml:
                "scenarios:\n  - scenario: S ${n}\n    examples: [{ n: 1 }, { n: 2 }]\n    steps: [{ wait: '${n}' }]\n",
            file: "x.yml"
        )
        #expect(whole.map(\.name) == chunked.map(\.name))
        #expect(whole.map(\.name) == ["S 1", "S 2"])
    }

    /// Rows times steps is bounded per file (1,000,000 nodes, 16 MiB of substituted text; lowered here,
    /// as a task-local, so the test builds thousands of nodes, not a million): the row where the budget
    /// runs out is the one error, and a second outline of the file shares the budget.
    @Test func outlineRowsAreBoundedPerFile() {
        let steps = String(repeating: "      - log: \"${s}\"\n", count: 100)
        func outline(_ name: String, rows: Int) -> String {
            "  - scenario: \(name) ${s}\n    examples:\n"
                + (0..<rows).map { "      - { s: \($0) }\n" }.joined() + "    steps:\n" + steps
        }
        #expect(OutlineLimits.nodes == 1_000_000 && OutlineLimits.bytes == 16 * 1024 * 1024)
        // 301 nodes a row: 60 rows of the first outline, then the 40th of the second is one too many.
        let text = "scenarios:\n" + outline("A", rows: 60) + outline("B", rows: 60)
        let found = OutlineLimits.$nodes.withValue(30_000) { errors(text) }
        #expect(found.count == 1, "\(found.prefix(3))")
        #expect(
            found.first
                == "206:9: Outline rows expand to more than 30,000 nodes in this file (the steps are written out once per row); split the outline into files or use fewer rows or steps."
        )
        // Text: a 1,000-byte value in a placeholder 11 times is past 10,000 bytes at the first row.
        let long = String(repeating: "x", count: 1_000)
        let bytes = """
            scenarios:
              - scenario: Long
                examples: [{ v: \(long) }]
                steps:
                  - log: "\(String(repeating: "${v}", count: 11))"
            """
        let bytesErrors = OutlineLimits.$bytes.withValue(10_000) { errors(bytes) }
        #expect(
            bytesErrors.first?.hasPrefix("3:16: Outline rows expand to more than 10,000 bytes of text") == true,
            "\(bytesErrors.map { $0.prefix(120) })"
        )
        // Under the budget, the same outlines load: every row a scenario.
        let under = OutlineLimits.$nodes.withValue(40_000) { errors(text) }
        #expect(under.isEmpty)
    }
}
