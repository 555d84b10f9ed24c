import Testing
import YAMLSource

@testable import Scenarios

/// Scenarios in the plain shape (`- scenario: NAME`, `steps:`, step lines written as earlier ones) get
/// their nodes from the scan of their lines, without libyaml (DECISIONS 210): those nodes must be
/// exactly what composing the same text makes — every scalar, line, column and flow span — and any
/// scenario not in that shape must leave the part to be composed.
struct PlainShapeTests {
    static let first = """
        scenarios:
          - scenario: First
            steps:
              - stub route: { class: Review, method: POST, to: /review }
              - expect response: { status: 201 }
              - post object: { class: Review, attributes: { title: Great, restaurantID: 1 } }

        """

    /// The part of scenario `index` of `first` followed by `more`, scanned after the file was loaded (so
    /// that the first scenario's steps are known), with what composing its text makes.
    static func scanned(_ more: String, scenario index: Int = 1) throws -> (
        known: ScenarioFileLoader.KnownLines?, composed: [YAMLNode]?
    ) {
        let text = first + more
        let (loader, chunks) = try loaded(text)
        let part = text[chunks.scenarios[index].range]
        let known = loader.leavingOutKnownLines(of: part)
        var composer = YAMLComposer()
        let composed = known.flatMap { try? composer.compose($0.text[...])?.items }
        return (known, composed)
    }

    /// A loader that has loaded `text` chunk by chunk (so that its steps are known), and the chunks.
    static func loaded(_ text: String) throws -> (ScenarioFileLoader, ScenarioFileChunks) {
        var loader = try ScenarioFileChunksTests.loader(text)
        let chunks = try #require(ScenarioFileChunks(text))
        _ = loader.load(chunks)
        return (loader, chunks)
    }

    /// A node as text: what it holds, where, and its flow span.
    static func rendered(_ node: YAMLNode) -> String {
        let place =
            "@\(node.line):\(node.column)" + (node.flowSpan.map { "[\($0.lowerBound)..<\($0.upperBound)]" } ?? "")
        switch node.content {
        case .scalar(let text, let isPlain): return "\(isPlain ? "" : "quoted ")'\(text)'\(place)"
        case .sequence(let items): return "[" + items.map(rendered).joined(separator: ", ") + "]\(place)"
        case .mapping(let pairs):
            return "{" + pairs.map { rendered($0.key) + ": " + rendered($0.value) }.joined(separator: ", ")
                + "}\(place)"
        }
    }

    @Test(arguments: [
        // As the workload writes them.
        "  - scenario: S0001 create review stubbed to /422 expects 422\n    steps:\n"
            + "      - stub route: { class: Review, method: POST, to: /review }\n"
            + "      - expect response: { status: 201 }\n",
        // Spaces after the name, the key, a dash; a blank line; a line break of CR LF.
        "  - scenario:   Spaced out   \n    steps:   \n\n      -    expect response: { status: 201 }   \r\n"
            + "      - stub route: { class: Review, method: POST, to: /review }\n",
        // Deeper indentation; punctuation a plain name may hold; three scenarios in one part.
        "  - scenario: a-b_c (x) 'q' \"r\" [s] {t}, u/v.w!\n    steps:\n"
            + "          - stub route: { class: Review, method: POST, to: /review }\n"
            + "  - scenario: 42 is a number\n    steps:\n      - expect response: { status: 201 }\n"
            + "  - scenario: null\n    steps:\n      - expect response: { status: 201 }\n",
    ])
    func scenariosInThePlainShapeGetTheNodesComposingMakes(_ more: String) throws {
        let (known, composed) = try Self.scanned(more)
        let items = try #require(known?.plain?.map(\.node), "in the plain shape")
        let expected = try #require(composed)
        #expect(items.map(Self.rendered) == expected.map(Self.rendered))
        // And they load as the whole document does.
        let text = Self.first + more
        #expect(try ScenarioFileChunksTests.load(text, whole: false) == ScenarioFileChunksTests.load(text, whole: true))
    }

    @Test(arguments: [
        "  - scenario: Colon: in the name\n    steps:\n      - expect response: { status: 201 }\n",
        "  - scenario: Commented # here\n    steps:\n      - expect response: { status: 201 }\n",
        "  - scenario: \"Quoted\"\n    steps:\n      - expect response: { status: 201 }\n",
        "  - scenario: Tagged\n    tags: [a]\n    steps:\n      - expect response: { status: 201 }\n",
        // A step built again wherever it is written (not left out).
        "  - scenario: Built anew\n    steps:\n      - post object: { class: Review, attributes: { title: Great, restaurantID: 1 } }\n",
        "  - scenario: Timed\n    steps:\n      - expect response: { status: 201 }\n        timeout: 3\n",
        "  - scenario: Commented line\n    steps:\n      # a comment\n      - expect response: { status: 201 }\n",
        "  - scenario: Plain step\n    steps:\n      - expect response: { status: 201 }\n      - succeed\n",
        "  - scenario: Named ${x}\n    steps:\n      - expect response: { status: 201 }\n      - stub route: { class: Review, method: POST, to: \"${x}\" }\n",
        "  - scenario: Uneven\n    steps:\n      - expect response: { status: 201 }\n        - stub route: { class: Review, method: POST, to: /review }\n",
        "  - scenario: Steps first\n    steps: \n    - expect response: { status: 201 }\n",
        "  - scenario: Empty steps\n    steps:\n",
        "  - steps:\n      - expect response: { status: 201 }\n    scenario: Keys swapped\n",
        "  - scenario: Tab\there\n    steps:\n      - expect response: { status: 201 }\n",
    ])
    func anyOtherShapeIsComposed(_ more: String) throws {
        let (known, _) = try Self.scanned(more)
        #expect(known?.plain == nil)
        let text = Self.first + more
        #expect(try ScenarioFileChunksTests.load(text, whole: false) == ScenarioFileChunksTests.load(text, whole: true))
    }

    /// One scenario of a part not in the shape: the whole part is composed.
    @Test func onePartNotInTheShapeIsComposedWhole() throws {
        let more =
            "  - scenario: Plain\n    steps:\n      - expect response: { status: 201 }\n"
            + "  - scenario: Tagged\n    tags: [a]\n    steps:\n      - expect response: { status: 201 }\n"
        let text = Self.first + more
        let (loader, chunks) = try Self.loaded(text)
        let both = chunks.scenarios[1].range.lowerBound..<chunks.scenarios[2].range.upperBound
        let known = try #require(loader.leavingOutKnownLines(of: text[both]))
        #expect(known.plain == nil)
        #expect(known.leftOut.count == 2)
    }

    /// A file's own keys, the same scenario name twice and steps with timeouts elsewhere: every scenario in
    /// the plain shape is made from its scan (DECISIONS 217), and nothing tells it from one read from its
    /// nodes — name, place, last line, feature, tags, `skip:`, set-up, steps and tear-down, and the
    /// duplicate reported at the same place.
    @Test func aScenarioMadeFromItsScanIsTheOneItsNodesMake() throws {
        let text = """
            feature: Reviews
            tags: [reviews]
            skip: not today
            set up:
              - succeed
            tear down:
              - succeed: done
            scenarios:
              - scenario: First
                steps:
                  - stub route: { class: Review, method: POST, to: /review }
                  - expect response: { status: 201 }
              - scenario: Second
                steps:
                  - expect response: { status: 201 }
                  - stub route: { class: Review, method: POST, to: /review }
              - scenario: First
                steps:
                  - stub route: { class: Review, method: POST, to: /review }
              - scenario: Third
                steps:
                  - expect response: { status: 201 }
                    timeout: 2
                  - stub route: { class: Review, method: POST, to: /review }

            """
        let (loader, chunks) = try Self.loaded(text)
        var scanning = loader
        for index in 1..<3 {
            #expect(scanning.leavingOutKnownLines(of: text[chunks.scenarios[index].range])?.plain?.count == 1)
        }
        let cut = try ScenarioFileChunksTests.load(text, whole: false)
        #expect(cut == (try ScenarioFileChunksTests.load(text, whole: true)))
        #expect(cut.scenarios.count == 4)
        #expect(cut.diagnostics.count == 1)
        #expect(
            cut.scenarios[1] == "s.yml: Second @s.yml:13:5-16 [Reviews] [\"reviews\"] skip: not today "
                + "succeed@s.yml:5:5 | expect response {status: 201}@s.yml:15:9 "
                + "| stub route {class: Review, method: POST, to: /review}@s.yml:16:9 | succeed: done@s.yml:7:5"
        )
    }

    /// A name bound by the file's own keys (a worker's file changed since its steps were built): a scenario
    /// in the plain shape is read from its nodes, where each step reads its arguments again, as composed.
    @Test func namesBoundBeforeMakeThePlainShapeReadItsNodes() throws {
        let text =
            Self.first
            + "  - scenario: Second\n    steps:\n      - stub route: { class: Review, method: POST, to: /review }\n"
        var (loader, chunks) = try Self.loaded(text)
        var scanning = loader
        #expect(scanning.leavingOutKnownLines(of: text[chunks.scenarios[1].range])?.plain?.count == 1)
        let bound = "set up:\n  - create from factory: { factory: restaurant, as: place }\n" + Self.first
        var other = try ScenarioFileChunksTests.loader(bound)
        let keys = try #require(ScenarioFileChunks(bound)).keys
        let read = other.fileSettings(keys)
        let settings = try #require(read)
        #expect(!settings.bindings.names.isEmpty)
        let built = loader.builtSteps.count
        let reported = loader.diagnostics.kept.count
        let scenarios = loader.scenarios(of: chunks.scenarios[1], in: settings)
        let made = try #require(scenarios)
        // Read again under the name bound: built once more, for that name.
        #expect(loader.builtSteps.count == built + 1)
        #expect(made.map(\.steps.count) == [1])
        #expect(made.first?.steps.first?.location?.line == 9)
        #expect(loader.diagnostics.kept.count == reported)
    }
}
