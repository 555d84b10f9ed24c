import Foundation
import Testing
import Yams

@testable import Scenarios

/// The loader's own composer (libyaml's events straight into ``YAMLNode``) must give exactly what Yams
/// gives for every document it accepts, and decline everything else so that Yams decides.
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
                + pairs.map { render($0.key, indent: indent + "  ? ") + render($0.value, indent: indent + "  : ") }.joined()
        }
    }

    static func throughYams(_ text: String) throws -> String? {
        try Yams.compose(yaml: text, .basic).map { render(YAMLNode($0)) }
    }

    /// The malformed corpus, the demo and example scenarios, and the demo server file.
    static let files: [URL] = {
        let root = Snapshot.testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        let folders = ["Tests/ScenariosTests/Malformed", "Scenarios", "Scenarios/examples-broken", "Scenarios/examples-failing", "Fixtures"]
        return folders.flatMap { folder -> [URL] in
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted().map { url.appendingPathComponent($0) }
        }
    }()

    @Test func everyAcceptedFileComposesAsYamsComposesIt() throws {
        var accepted = 0
        for url in Self.files {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard let fast = YAMLNode.compose(text[...]) else { continue }
            accepted += 1
            #expect(Self.render(fast) == (try Self.throughYams(text)), "\(url.lastPathComponent)")
        }
        #expect(Self.files.count >= 30)
        #expect(accepted >= 25, "the corpus exercises the fast path: \(accepted) of \(Self.files.count) files")
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
        let fast = try #require(YAMLNode.compose(text[...]), "accepted")
        #expect(Self.render(fast) == (try Self.throughYams(text)))
    }

    @Test(arguments: [
        "a: &x b\nc: *x\n",  // anchors and aliases
        "a: !custom b\n",  // explicit tags
        "a: !!str 1\n",
        "%YAML 1.1\n---\na: b\n",  // directives
        "a: 1\na: 2\n",  // a key written twice
        "? [a, b]\n: c\n",  // a complex key
        "a: b\n---\nc: d\n",  // two documents
        "",  // no document
        "# only a comment\n",
        "a: [b\n",  // syntax errors
        "a: b\n c: d\n",
        "\ta: b\n",
    ])
    func everythingElseIsLeftToYams(_ text: String) {
        #expect(YAMLNode.compose(text[...]) == nil)
    }

    /// Damaged copies of every corpus file (a seeded generator: characters dropped, doubled or replaced
    /// by YAML's indicators, lines duplicated): whatever the composer accepts, Yams composes to the same
    /// tree, and whatever Yams rejects, the composer declines.
    @Test func damagedFilesComposeAsYamsComposesThemOrAreDeclined() throws {
        var generator = SplitMix(seed: 0x5CE7_A210)
        let indicators: [Character] = [":", "-", " ", "\n", "\t", "\"", "'", "&", "*", "!", "#", "[", "]", "{", "}", ",", "?", "|", ">", "%"]
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
                if let fast = YAMLNode.compose(damaged[...]) {
                    accepted += 1
                    #expect(Self.render(fast) == yams, "\(url.lastPathComponent): \(damaged.debugDescription)")
                } else {
                    declined += 1
                }
            }
        }
        #expect(accepted > 100 && declined > 100, "both paths exercised: \(accepted) accepted, \(declined) declined")
    }

    @Test func aSubstringKeepsItsOwnLines() throws {
        let text = "skip: me\nkept:\n  - x\n"
        let range = try #require(text.range(of: "kept:"))
        let node = try #require(YAMLNode.compose(text[range.lowerBound...]))
        #expect(node.line == 1)
        #expect(node["kept"]?.content.items?.first?.string == "x")
        #expect(node["kept"]?.line == 2 && node["kept"]?.column == 3)
    }
}

extension YAMLNode.Content {
    fileprivate var items: [YAMLNode]? {
        if case .sequence(let items) = self { return items }
        return nil
    }
}

/// A small seeded generator (SplitMix64), so that the damaged files are the same on every run.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
