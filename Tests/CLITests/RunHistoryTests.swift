import Foundation
import Testing

@testable import ScenarioRunCLI

/// The history file's pure parts: each scenario's marks over the last runs, and the lines kept when a run
/// is added.
struct RunHistoryTests {
    /// A scenario's key is FNV-1a of its file, a newline and its name, 48 bits in hex: the same in every
    /// version, or the history would lose every scenario (values computed apart, in Python).
    @Test func aKeyIsTheSameInEveryVersion() {
        #expect(RunHistory.key(file: "Scenarios/a.yml", name: "A") == "70bbdb2f7fad")
        #expect(RunHistory.key(file: "Scenarios/é.yml", name: "Café 🙂") == "15d5d7d4d39d")
        #expect(RunHistory.key(file: "", name: "") == "c74c8601c8dd")
    }

    @Test func marksSayEachRunsOutcomeOfEachScenarioOldestFirst() {
        let a = RunHistory.key(file: "Scenarios/a.yml", name: "A")
        let b = RunHistory.key(file: "Scenarios/a.yml", name: "B")
        let c = RunHistory.key(file: "Scenarios/c.yml", name: "C")
        func run(passed: [String] = [], failed: [String] = [], flaky: [String] = []) -> RunHistory.Run {
            RunHistory.Run(
                time: 1,
                duration: 1,
                passed: passed.count,
                failed: failed.count,
                skipped: 0,
                flaky: flaky.count,
                cancelled: false,
                passedKeys: passed.joined(separator: " "),
                failedKeys: failed.joined(separator: " "),
                flakyKeys: flaky.joined(separator: " ")
            )
        }
        let runs = [
            run(passed: [a, b]), run(passed: [a], failed: [b]), run(failed: [b, c], flaky: [a]),
            run(passed: ["zz-not-a-key", a]),
            RunHistory.Run(time: 1, duration: 1, passed: 0, failed: 0, skipped: 0, flaky: 0, cancelled: false),
        ]
        #expect(RunHistory.marks(for: [a, b, c, a], in: runs) == ["ppkp-", "pff--", "--f--", "ppkp-"])
        #expect(RunHistory.marks(for: [a, b], in: runs, count: 2) == ["p-", "--"])
        #expect(RunHistory.marks(for: [], in: runs).isEmpty)
        // Words are read from the bytes: spaces around and between, a longer or non-hex word is no key.
        func passed(_ keys: String) -> RunHistory.Run {
            RunHistory.Run(
                time: 1,
                duration: 1,
                passed: 1,
                failed: 0,
                skipped: 0,
                flaky: 0,
                cancelled: false,
                passedKeys: keys
            )
        }
        #expect(RunHistory.marks(for: [a], in: [passed("  \(a)0 0123456789abcdef0  \(a) ")]) == ["p"])
        #expect(RunHistory.marks(for: [a], in: [passed("\(a)0 x\(a) \(a)x 0123456789abcdef0\(a)")]) == ["-"])
    }

    @Test func theLastLinesAreKeptEachEndingWithANewline() {
        func kept(_ text: String, _ count: Int) -> String {
            String(decoding: RunHistory.lastLines(count, of: Data(text.utf8)), as: UTF8.self)
        }
        #expect(kept("1\n2\n3\n", 2) == "2\n3\n")
        #expect(kept("1\n2\n3", 2) == "2\n3\n", "a last line without its newline gets one")
        #expect(kept("1\n2\n3\n\n\n", 5) == "1\n2\n3\n")
        #expect(kept("", 3) == "")
        #expect(kept("1\n2\n", 0) == "")
        #expect(kept(String(repeating: "x\n", count: 60), 49) == String(repeating: "x\n", count: 49))
    }

    /// A line reads back as written; an older line without keys reads too; a damaged one is left out.
    @Test func linesReadBackAsWrittenAndDamagedOnesAreLeftOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let history = RunHistory(projectDirectory: folder)
        let run = RunHistory.Run(
            time: 1_764_200_000.25,
            duration: 0.5,
            passed: 2,
            failed: 1,
            skipped: 0,
            flaky: 1,
            cancelled: true,
            passedKeys: "0123456789ab 0123456789ac",
            failedKeys: "0123456789ad",
            flakyKeys: ""
        )
        try history.append(run)
        let lines = try String(contentsOf: history.url, encoding: .utf8)
        try
            (lines + #"{"time":2,"duration":1,"passed":1,"failed":0,"skipped":0,"flaky":0,"cancelled":false}"#
            + "\n{\"time\":\"damaged\"}\nnot json\n").write(to: history.url, atomically: true, encoding: .utf8)
        let older = RunHistory.Run(time: 2, duration: 1, passed: 1, failed: 0, skipped: 0, flaky: 0, cancelled: false)
        #expect(history.load() == [run, older])
    }
}
