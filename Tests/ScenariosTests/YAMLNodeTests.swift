import Foundation
import SharedValues
import TestSupport
import Testing
import YAMLSource
import Yams

/// The package's own composer (libyaml's events straight into ``YAMLNode``, with the limits checked) must
/// give exactly what Yams gives for every document Yams accepts, and reject what Yams rejects.
struct YAMLNodeTests {
    /// Every node with its kind, text, plainness and position, for comparing two trees.
    static func render(_ node: YAMLNode, indent: String = "") -> String {
        let at = "@\(node.line):\(node.column)"
        switch node.content {
        case .scalar(let text, let isPlain):
            return "\(indent)\(isPlain ? "plain" : "quoted") \(text.debugDescription) \(at)\n"
        case .sequence(let items):
            return "\(indent)sequence \(at)\n" + items.map { render($0, indent: indent + "  ") }.joined()
        case .mapping(let pairs):
            return "\(indent)mapping \(at)\n"
                + pairs.map { render($0.key, indent: indent + "  ? ") + render($0.value, indent: indent + "  : ") }
                .joined()
        }
    }

    static func throughYams(_ text: String) throws -> String? {
        try Yams.compose(yaml: text, .basic).map { render(node($0)) }
    }

    /// Ours, rendered; `nil` for an empty stream.
    static func ours(_ text: String) throws -> String? {
        var composer = YAMLComposer()
        return try composer.compose(text[...]).map { render($0) }
    }

    static func compose(_ text: String) -> YAMLNode? {
        var composer = YAMLComposer()
        return try? composer.compose(text[...])
    }

    /// Yams' node as ours (its aliases already resolved to the nodes they name).
    static func node(_ node: Node) -> YAMLNode {
        let line = node.mark?.line ?? 1
        let column = node.mark?.column ?? 1
        switch node {
        case .scalar(let scalar):
            let isPlain = scalar.style == .plain || scalar.style == .any
            return YAMLNode(content: .scalar(scalar.string, isPlain: isPlain), line: line, column: column)
        case .sequence(let sequence):
            return YAMLNode(content: .sequence(sequence.map(Self.node)), line: line, column: column)
        case .mapping(let mapping):
            let pairs = mapping.map { (key: Self.node($0.key), value: Self.node($0.value)) }
            return YAMLNode(content: .mapping(pairs), line: line, column: column)
        case .alias:
            return YAMLNode(content: .scalar("", isPlain: true), line: line, column: column)
        }
    }

    /// The malformed corpus, the demo and example scenarios, and the demo server file.
    static let files: [URL] = {
        let root = Snapshot.testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        let folders = [
            "Tests/ScenariosTests/Malformed", "Scenarios", "Scenarios/examples-broken", "Scenarios/examples-failing",
            "Fixtures",
        ]
        return folders.flatMap { folder -> [URL] in
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted().map {
                url.appendingPathComponent($0)
            }
        }
    }()

    @Test func everyFileComposesAsYamsComposesIt() throws {
        var accepted = 0
        for url in Self.files {
            let text = try String(contentsOf: url, encoding: .utf8)
            let yams = try? Self.throughYams(text)
            let ours = try? Self.ours(text)
            #expect(ours == yams, "\(url.lastPathComponent)")
            if ours != nil { accepted += 1 }
        }
        #expect(Self.files.count >= 30)
        #expect(accepted >= 25, "\(accepted) of \(Self.files.count) files")
    }

    @Test(arguments: [
        // Every scalar style, flow and block collections, comments, Unicode, escapes, line breaks.
        "plain: text\nsingle: 'it''s'\ndouble: \"tab\\there \\u00e9 \\x41\"\nliteral: |\n  a\n   b\nfolded: >-\n  c\n  d\n",
        "list: [a, 'b', { c: d }, [e]]\nmap: { x: 1, y: ~ }\nempty: \nnull: null\n",
        "# comment\n- a # trailing\n-\n  - nested\n- key: value\n  other: 2\n",
        "ünïcödé: ✓ 日本\n\"quoted key\": x\n? plain complex\n: value\n",
        "---\nscenarios:\n  - scenario: A\n    steps: [succeed]\n...\n",
        "a: b\r\nc:\r\n  - d\r\n",
        "just a scalar",
        "\"\\0 nul inside\"",
    ])
    func validDocumentsComposeAsYamsComposesThem(_ text: String) throws {
        let ours = try #require(try Self.ours(text), "accepted")
        #expect(ours == (try Self.throughYams(text)))
    }

    @Test(arguments: [
        "a: &x b\nc: *x\n",  // anchors and aliases
        "a: &x [1, {b: c}]\nd: *x\ne: [*x, *x]\n",
        "a: !custom b\n",  // explicit tags (ignored: plainness comes from the style)
        "a: !!str 1\n",
        "%YAML 1.1\n---\na: b\n",  // directives
        "? [a, b]\n: c\n",  // a complex key
        "",  // no document
        "# only a comment\n",
    ])
    func documentsBeyondThePlainLayoutComposeAsYamsComposesThem(_ text: String) throws {
        #expect(try Self.ours(text) == (try Self.throughYams(text)))
    }

    @Test(arguments: [
        ("a: 1\nb: 2\na: 3\n", "3:1: Duplicate key 'a'."),  // at the second occurrence
        ("a: b\n---\nc: d\n", "2:1: A second YAML document; a file holds one document."),
        ("a: *nowhere\n", "1:4: Unknown alias '*nowhere'; an alias names an anchor ('&nowhere') written before it."),
        ("a: &x [*x]\n", "1:8: Unknown alias '*x'; an alias names an anchor ('&x') written before it."),
        (
            "a: [b\n",
            "2:1: Invalid YAML: did not find expected ',' or ']' while parsing a flow sequence that started on line 1."
        ),
        ("a: b\n c: d\n", "2:3: Invalid YAML: mapping values are not allowed in this context."),
        (
            "\ta: b\n",
            "1:1: Invalid YAML: found character that cannot start any token while scanning for the next token."
        ),
    ])
    func whatYamsRejectsIsALocatedError(_ text: String, _ expected: String) throws {
        #expect(throws: (any Error).self) { try Self.throughYams(text) }
        var composer = YAMLComposer()
        let error = try #require(throws: YAMLError.self) { try composer.compose(text[...]) }
        #expect("\(error.line):\(error.column): \(error.message)" == expected)
    }

    /// Damaged copies of every corpus file (a seeded generator: characters dropped, doubled or replaced
    /// by YAML's indicators, lines duplicated): both composers accept the same files, to the same tree.
    @Test func damagedFilesComposeAsYamsComposesThem() throws {
        var generator = SplitMix64(seed: 0x5CE7_A210)
        let indicators: [Character] = [
            ":", "-", " ", "\n", "\t", "\"", "'", "&", "*", "!", "#", "[", "]", "{", "}", ",", "?", "|", ">", "%",
        ]
        var accepted = 0
        var declined = 0
        for url in Self.files {
            let original = Array(try String(contentsOf: url, encoding: .utf8))
            guard !original.isEmpty else { continue }
            for _ in 0..<60 {
                var text = original
                for _ in 0...generator.next(below: 3) {
                    let index = generator.next(below: text.count)
                    switch generator.next(below: 4) {
                    case 0: text.remove(at: index)
                    case 1: text.insert(text[index], at: index)
                    case 2: text[index] = indicators[generator.next(below: indicators.count)]
                    default:
                        let lineStart = text[..<index].lastIndex(of: "\n").map { $0 + 1 } ?? 0
                        let lineEnd = text[index...].firstIndex(of: "\n").map { $0 + 1 } ?? text.count
                        text.insert(contentsOf: text[lineStart..<lineEnd], at: lineEnd)
                    }
                    if text.isEmpty { break }
                }
                let damaged = String(text)
                let yams = try? Self.throughYams(damaged)
                let ours = try? Self.ours(damaged)
                #expect(ours == yams, "\(url.lastPathComponent): \(damaged.debugDescription)")
                if ours != nil { accepted += 1 } else { declined += 1 }
            }
        }
        #expect(accepted > 100 && declined > 100, "both paths exercised: \(accepted) accepted, \(declined) declined")
    }

    @Test func aSubstringKeepsItsOwnLines() throws {
        let text = "skip: me\nkept:\n  - x\n"
        let range = try #require(text.range(of: "kept:"))
        var composer = YAMLComposer()
        let node = try #require(try composer.compose(text[range.lowerBound...]))
        #expect(node.line == 1)
        #expect(node["kept"]?.items?.first?.string == "x")
        #expect(node["kept"]?.line == 2 && node["kept"]?.column == 3)
    }
}
