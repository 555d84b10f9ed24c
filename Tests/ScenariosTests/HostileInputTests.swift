import Diagnostics
import Foundation
import Testing
import YAMLSource

@testable import Scenarios

/// The limits of ``YAMLLimits`` as the loader meets them: exact messages at exact places, small
/// anchors still fine, one alias budget for a file read in chunks, and scenario folders with links.
struct HostileInputTests {
    static func errors(_ text: String) -> [String] {
        do {
            _ = try FakeSteps.loader.load(yaml: text, file: "s.yml")
            return []
        } catch {
            return error.diagnostics.map { "\($0.location): \($0.message)" }
        }
    }

    static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
        var composer = YAMLComposer()
        return try composer.compose(text[...])
    }

    /// `count` aliases of an anchor holding `size` nodes (a list of `size - 1` scalars).
    static func aliases(_ count: Int, ofNodes size: Int) -> String {
        "a: &a [" + Array(repeating: "x", count: size - 1).joined(separator: ", ") + "]\n"
            + "b: [" + Array(repeating: "*a", count: count).joined(separator: ", ") + "]\n"
    }

    @Test func aliasesMayExpandToTheLimitAndNoFurther() throws {
        let atLimit = try #require(try Self.compose(Self.aliases(100, ofNodes: 1000)))
        #expect(atLimit["b"]?.items?.count == 100)
        #expect(atLimit["b"]?.items?.last?.items?.count == 999)
        let error = try #require(throws: YAMLError.self) { try Self.compose(Self.aliases(101, ofNodes: 1000)) }
        #expect(error == YAMLError(.aliasesTooLarge, line: 2, column: 5 + 4 * 100))
        #expect(error.message == "Aliases expand to more than 100,000 nodes.")
    }

    /// Expansions so far: 110 + 1,110 + 11,110 by `a1`…`a3`; seven aliases of `a4` (11,111 nodes each)
    /// fit in what is left, the eighth (column 45) does not.
    @Test func aBillionLaughsFailsFastAtTheAlias() {
        var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1..<30 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]"
            )
        }
        let text = lines.joined(separator: "\n") + "\nscenarios: [*a29]\n"
        #expect(Self.errors(text) == ["s.yml:5:45: Aliases expand to more than 100,000 nodes."])
    }

    /// A file in the plain layout is composed in chunks; they share one budget, so a bomb spread over many
    /// scenarios is still caught (by the whole document, which then decides).
    @Test func chunksOfOneFileShareOneAliasBudget() {
        let scenarios = (0..<30).map { index in
            let items = Array(repeating: "*a\(index)", count: 5).joined(separator: ", ")
            return "  - scenario: S\(index)\n    tags: &a\(index) ["
                + Array(repeating: "t", count: 999).joined(separator: ", ")
                + "]\n    steps: [succeed]\n    x: [\(items)]"
        }
        let text = "scenarios:\n" + scenarios.joined(separator: "\n") + "\n"
        #expect(ScenarioFileChunks(text)?.scenarios.count == 30, "the plain layout")
        // 30 scenarios × 5 aliases × 1,000 nodes = 150,000: over the limit at the 21st scenario's 1st alias.
        #expect(Self.errors(text).first == "s.yml:85:9: Aliases expand to more than 100,000 nodes.")
    }

    @Test func nestingMayGoToTheLimitAndNoFurther() throws {
        let limit = YAMLLimits.maxDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try Self.compose(atLimit) != nil)
        let deeper = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: YAMLError(.tooDeep, line: 1, column: limit + 1)) { try Self.compose(deeper) }
        let million = String(repeating: "[", count: 1_000_000)
        #expect(throws: YAMLError(.tooDeep, line: 1, column: limit + 1)) { try Self.compose(million) }
    }

    @Test func bytesAreCheckedWhereTheyAre() {
        func error(_ bytes: [UInt8]) -> YAMLError? {
            do {
                _ = try bytes.withUnsafeBufferPointer { buffer in
                    Result { () throws(YAMLError) in try YAMLText(validating: buffer) }
                }.get()
                return nil
            } catch {
                return error
            }
        }
        #expect(error(Array("a: ✓\nbé: \u{7}".utf8)) == YAMLError(.controlCharacter(7), line: 2, column: 5))
        #expect(error([0x61, 0x0A, 0x62, 0xFF]) == YAMLError(.invalidUTF8(byte: 0xFF), line: 2, column: 2))
        #expect(
            error([0xEF, 0xBB, 0xBF, 0x61, 0x00]) == YAMLError(.controlCharacter(0), line: 1, column: 2),
            "after the BOM"
        )
        #expect(error(Array("tab\there\r\nnel \u{85} ok\n".utf8)) == nil)
        #expect(
            YAMLError(.invalidUTF8(byte: 0xC3), line: 1, column: 1).message
                == "Invalid UTF-8: byte 0xC3 does not start a character; is this a text file?"
        )
        #expect(
            YAMLError(.controlCharacter(0), line: 1, column: 1).message
                == "Control character U+0000 is not allowed in YAML; is this a text file?"
        )
    }

    @Test func aByteOrderMarkIsDroppedAndCRLFKeepsColumns() throws {
        let text = "\u{FEFF}scenarios:\r\n  - scenario: A\r\n    steps: [succeed, nope]\r\n"
        let expected = "s.yml:3:22: Unknown step 'nope'."
        #expect(Self.errors(text).first?.hasPrefix(expected) == true, "\(Self.errors(text))")
        do {
            _ = try FakeSteps.loader.load(yaml: text, file: "s.yml")
        } catch {
            #expect(error.diagnostics.first?.sourceLine == "    steps: [succeed, nope]")
        }
    }

    @Test func anEmptyScenarioNameIsAnError() {
        #expect(
            Self.errors("scenarios:\n  - scenario: ''\n    steps: [succeed]\n") == [
                "s.yml:2:15: Empty scenario name; every scenario needs a name."
            ]
        )
    }

    @Test func settingsAreHeldToTheSameLimits() {
        let bomb = Self.aliases(200, ofNodes: 1000).replacingOccurrences(of: "a:", with: "x-a:").replacingOccurrences(
            of: "b:",
            with: "x-b:"
        )
        #expect(throws: DiagnosticList.self) { try RunSettings.load(yaml: bomb, file: "scenario-run.yml") }
        do {
            _ = try RunSettings.load(yaml: bomb, file: "scenario-run.yml")
        } catch {
            #expect(
                error.description.hasPrefix("scenario-run.yml:2:407: error: Aliases expand to more than 100,000 nodes.")
            )
        }
    }

    /// 8,000 unknown steps in one file: every error located (how long it takes is scenario-bench's `load`).
    @Test func eightThousandErrorsAreAllLocated() {
        let steps = (0..<8000).map { "      - nope \($0)" }.joined(separator: "\n")
        let text = "scenarios:\n  - scenario: A\n    steps:\n" + steps + "\n"
        let errors = Self.errors(text)
        #expect(errors.count == 8000)
        #expect(errors.last?.hasPrefix("s.yml:8003:9: Unknown step 'nope 7999'.") == true)
    }

    /// A pipe named like a scenario file would block the read forever; a device would never end it.
    @Test func onlyRegularFilesAreRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("pipe.yml").path
        #expect(mkfifo(pipe, 0o600) == 0)
        for path in [pipe, "/dev/zero"] {
            #expect(throws: DiagnosticList.self) { try FakeSteps.loader.load(paths: [path]) }
            do {
                _ = try FakeSteps.loader.load(paths: [path])
            } catch {
                #expect(
                    error.description
                        == "\(path):1:1: error: Not a regular file; a YAML file must be a plain file, not a device, a socket or a pipe."
                )
            }
        }
    }

    @Test func aFolderLinkedToItsParentIsSearchedOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scenario-links-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = folder.appendingPathComponent("Scenarios")
        try FileManager.default.createDirectory(
            at: scenarios.appendingPathComponent("sub"),
            withIntermediateDirectories: true
        )
        try Data("x".utf8).write(to: scenarios.appendingPathComponent("a.yml"))
        try Data("x".utf8).write(to: scenarios.appendingPathComponent("sub/b.yml"))
        let links = [
            ("sub/loop", ".."), ("sub/self", "."), ("again.yml", "a.yml"), ("gone.yml", "missing.yml"),
            ("gone-folder", "missing"),
        ]
        for (link, target) in links {
            try FileManager.default.createSymbolicLink(
                atPath: scenarios.appendingPathComponent(link).path,
                withDestinationPath: target
            )
        }
        let (files, problems) = ScenarioFiles.find(in: [scenarios.path, scenarios.path + "/sub"])
        #expect(files == [scenarios.path + "/a.yml", scenarios.path + "/sub/b.yml"])
        #expect(
            problems.map(\.description) == [
                "\(scenarios.path)/gone.yml:1:1: error: Broken symbolic link; nothing is at the place it names."
            ]
        )
    }
}
