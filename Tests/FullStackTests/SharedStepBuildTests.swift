import Diagnostics
import Scenarios
import Steps
import Testing

/// A file's repeats of a built-in step written alike are built once and shared (issue 33, point 4):
/// each use keeps its own line and timeout, and what differs — the text, a `${…}` reference, the names
/// bound before it — still builds its own step, with its own errors.
@Suite struct SharedStepBuildTests {
    static func load(_ text: String) throws(DiagnosticList) -> [Scenario] {
        let registry: StepRegistry
        do {
            registry = try BuiltInSteps.registry(adding: [])
        } catch {
            preconditionFailure("\(error)")
        }
        return try ScenarioLoader(registry: registry, buildContext: StepBuildContext()).load(yaml: text, file: "s.yml")
    }

    static func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch {
            return error.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        }
    }

    @Test func eachUseOfASharedBuildKeepsItsOwnLineAndTimeout() throws {
        let scenarios = try Self.load(
            """
            scenarios:
              - scenario: A
                steps:
                  - expect response: { status: 201 }
                  - get objects: { route: restaurants }
              - scenario: B
                steps:
                  - get objects: { route: restaurants }
                  - expect response: { status: 201 }
                    timeout: 7
              - scenario: C
                steps:
                  - expect response: { status: 201 }
                  - expect response: { status: "201" }
            """
        )
        let lines = scenarios.map { $0.steps.map { $0.location?.line ?? 0 } }
        #expect(lines == [[4, 5], [8, 9], [13, 14]])
        let timeouts = scenarios.map { $0.steps.map(\.timeout) }
        #expect(timeouts == [[nil, nil], [nil, .seconds(7)], [nil, nil]])
        let first = scenarios[0].steps[0].description
        #expect(scenarios[2].steps.map(\.description) == [first, "expect response status 201"])
    }

    /// `post object: { object: r }` names an object bound with `as:`: where `r` is bound it builds; where it is not,
    /// the same text is an error at its own line — the names bound before a step are part of what it is.
    @Test func theNamesBoundBeforeAStepArePartOfWhatItIs() {
        #expect(
            Self.errors(
                """
                scenarios:
                  - scenario: Bound
                    steps:
                      - insert entity: { entity: Review, attributes: { title: x }, as: r }
                      - post object: { object: r }
                  - scenario: Unbound
                    steps:
                      - post object: { object: r }
                """
            ).map { $0.prefix(2) } == ["8:"]
        )
    }

    /// A step written as a flow collection is found again by its text, unless the text holds an alias: the
    /// same `*to` names what the anchor last written says, `/a` in one scenario and `/b` in the next.
    @Test func theSameTextWithAnAliasIsBuiltAgain() throws {
        let scenarios = try Self.load(
            """
            scenarios:
              - scenario: A
                steps:
                  - stub route: { class: Review, method: GET, to: &to /a }
                  - stub route: { class: Review, method: POST, to: *to }
              - scenario: B
                steps:
                  - stub route: { class: Review, method: GET, to: &to /b }
                  - stub route: { class: Review, method: POST, to: *to }
              - scenario: C
                steps:
                  - stub route: { class: Review, method: GET, to: &to /b }
            """
        )
        #expect(
            scenarios.map { $0.steps.map(\.description) } == [
                ["stub route Review GET to /a", "stub route Review POST to /a"],
                ["stub route Review GET to /b", "stub route Review POST to /b"],
                ["stub route Review GET to /b"],
            ]
        )
        #expect(scenarios.map { $0.steps.map { $0.location?.line ?? 0 } } == [[4, 5], [8, 9], [12]])
    }

    /// What is reported about a step is reported at each place it is written, however it is found.
    @Test func aProblemIsReportedWhereverTheSameTextIsWritten() {
        let errors = Self.errors(
            """
            scenarios:
              - scenario: A
                steps:
                  - stub route: { class: Review, method: POST, to: /a, as: x }
              - scenario: B
                steps:
                  - stub route: { class: Review, method: POST, to: /a, as: x }
            """
        )
        #expect(errors.map { $0.prefix(2) } == ["4:", "7:"], "\(errors)")
    }

    /// In a file that is not ASCII, libyaml's character offsets are not byte offsets: each step is still
    /// its own.
    @Test func aFileThatIsNotASCIIBuildsEachStepAsWritten() throws {
        let scenarios = try Self.load(
            """
            scenarios:
              - scenario: Café
                steps:
                  - stub route: { class: Review, method: POST, to: /café }
                  - stub route: { class: Review, method: GET, to: /b }
              - scenario: B
                steps:
                  - stub route: { class: Review, method: GET, to: /b }
                  - stub route: { class: Review, method: POST, to: /café }
            """
        )
        #expect(
            scenarios.map { $0.steps.map(\.description) } == [
                ["stub route Review POST to /café", "stub route Review GET to /b"],
                ["stub route Review GET to /b", "stub route Review POST to /café"],
            ]
        )
    }
}
