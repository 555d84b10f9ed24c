import Diagnostics
import Foundation
import TestSupport
import Testing

@testable import Scenarios

/// A worker builds each scenario it is handed from its file and line (``ScenarioBuilder``) instead of
/// loading every file: each one built so must be the scenario the loader loads — its steps, set-up and
/// tear-down, their lines, its tags, skip and row — in every layout, and a scenario the file no longer
/// holds at its line is none.
struct ScenarioBuilderTests {
    /// `tear down` before `set up`: its steps' lines are those of its own part of the file.
    static let plain = """
        feature: Reviews
        tags: [reviews]
        tear down:
          - log: "tearing down"
        set up:
          - succeed
        scenarios:
          - scenario: First
            tags: [smoke]
            steps:
              - expect response: { status: 201 }
          - scenario: Waits ${n}
            examples:
              - { n: 1 }
              - { n: 2 }
            steps: [{ wait: "${n}" }]
          - scenario: Skipped
            skip: not today
            steps: [succeed]
        """

    static let files: [(name: String, text: String)] = [
        ("plain", plain),
        (
            "flow",
            "{ feature: Flow, scenarios: [ { scenario: A, steps: [succeed] }, { scenario: B, steps: [fail: no] } ] }"
        ),
        (
            "alias",
            "scenarios:\n  - scenario: A\n    steps: &shared [succeed]\n  - scenario: B\n    steps: *shared\n"
        ),
        // Items are read again from the file by their bytes: a byte order mark, letters of several bytes
        // and CR LF line ends move them.
        (
            "marked",
            "\u{FEFF}"
                + plain.replacingOccurrences(of: "First", with: "Première où ça ✓")
                .replacingOccurrences(of: "\n", with: "\r\n")
        ),
    ]

    /// Everything a report or a run reads of a scenario, comparable.
    static func describe(_ scenario: Scenario) -> String {
        func steps(_ steps: [Step]) -> String {
            steps.map { "\($0.description)@\($0.location.map(\.description) ?? "-")" }.joined(separator: " | ")
        }
        return "\(scenario.id) @\(scenario.location) [\(scenario.feature)] \(scenario.tags.sorted()) "
            + "skip \(scenario.skip ?? "-") row \(scenario.example?.row ?? 0) last \(scenario.lastLine) "
            + "set up \(steps(scenario.setUp)) steps \(steps(scenario.steps)) tear down \(steps(scenario.tearDown))"
    }

    /// This test's folder, removed with it.
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("builder")
    }

    func write(_ text: String) throws -> String {
        try folder.write(text, to: "s.yml").path
    }

    static func builder() -> ScenarioBuilder {
        ScenarioBuilder(registry: FakeSteps.registry, buildContext: FakeSteps.buildContext)
    }

    @Test(arguments: files.map(\.name))
    func everyScenarioBuiltAloneIsTheOneTheLoaderLoads(_ name: String) throws {
        let path = try write(try #require(Self.files.first { $0.name == name }).text)
        let loaded = try FakeSteps.loader.load(paths: [path])
        #expect(loaded.count >= 2)
        var builder = Self.builder()
        // Out of order, as a worker of several is handed them.
        for scenario in loaded.reversed() {
            let built = builder.scenario(scenario.id, line: scenario.location.line)
            #expect(built.map(Self.describe) == Self.describe(scenario))
        }
        // The plain layout is built item by item (the others need the whole document).
        #expect(builder.filesLoadedWhole == (["plain", "marked"].contains(name) ? 0 : 1))
    }

    /// Handed with where the parent found its item and its file's keys, a scenario is built from those
    /// bytes alone: the builder never reads the file to find them. An item that does not compose on its
    /// own (an alias) is built from the whole file, as without them.
    @Test(arguments: files.map(\.name))
    func everyScenarioBuiltFromItsItemSourceIsTheOneTheLoaderLoads(_ name: String) throws {
        let path = try write(try #require(Self.files.first { $0.name == name }).text)
        let loaded = try FakeSteps.loader.load(paths: [path])
        var parent = FakeSteps.loader
        parent.keepsActions = false
        let handed = try parent.load(paths: [path])
        #expect(handed.map(\.id) == loaded.map(\.id))
        #expect(loaded.allSatisfy { $0.itemSource == nil }, "only a parent of workers keeps them")
        // The flow layout is loaded as a whole document: no item has bytes of its own.
        #expect(handed.allSatisfy { $0.itemSource != nil } == (name != "flow"))
        var builder = Self.builder()
        for (scenario, parentScenario) in zip(loaded, handed).reversed() {
            let built = builder.scenario(scenario.id, line: scenario.location.line, source: parentScenario.itemSource)
            #expect(built.map(Self.describe) == Self.describe(scenario))
        }
        #expect(builder.filesOpened == (["plain", "marked"].contains(name) ? 0 : 1))
        #expect(builder.filesLoadedWhole == (["plain", "marked"].contains(name) ? 0 : 1))
    }

    /// A file changed after the parent loaded it: built from the bytes the parent found, a scenario is
    /// the one loaded or none, never another.
    @Test func aFileChangedAfterTheParentLoadedItGivesNoOtherScenarioFromItsSource() throws {
        let path = try write(Self.plain)
        var parent = FakeSteps.loader
        parent.keepsActions = false
        let handed = try parent.load(paths: [path])
        let loaded = try FakeSteps.loader.load(paths: [path])
        let first = try #require(loaded.first)
        let skipped = try #require(loaded.last)
        // The file's keys changed (its feature is longer): the keys' bytes read wrong, the item's too.
        try Self.plain.replacingOccurrences(of: "feature: Reviews", with: "feature: Reviews and more")
            .write(toFile: path, atomically: true, encoding: .utf8)
        var builder = Self.builder()
        let built = builder.scenario(first.id, line: first.location.line, source: handed.first?.itemSource)
        #expect(built == nil || built.map(Self.describe) == Self.describe(first))
        // Renamed: none.
        try Self.plain.replacingOccurrences(of: "scenario: Skipped", with: "scenario: Later")
            .write(toFile: path, atomically: true, encoding: .utf8)
        var fresh = Self.builder()
        #expect(fresh.scenario(skipped.id, line: skipped.location.line, source: handed.last?.itemSource) == nil)
        try FileManager.default.removeItem(atPath: path)
        var gone = Self.builder()
        #expect(gone.scenario(first.id, line: first.location.line, source: handed.first?.itemSource) == nil)
    }

    @Test func aTearDownWrittenBeforeTheSetUpKeepsItsOwnLines() throws {
        let path = try write(Self.plain)
        let first = try #require(try FakeSteps.loader.load(paths: [path]).first)
        #expect(first.tearDown.first?.location?.line == 4, "`- log:` is on line 4")
        #expect(first.setUp.first?.location?.line == 6)
    }

    @Test func aScenarioItsFileNoLongerHoldsAtItsLineIsNone() throws {
        let path = try write(Self.plain)
        let loaded = try FakeSteps.loader.load(paths: [path])
        let first = try #require(loaded.first)
        let row = try #require(loaded.first { $0.example?.row == 2 })
        try Self.plain.replacingOccurrences(of: "scenario: First", with: "scenario: Renamed")
            .write(toFile: path, atomically: true, encoding: .utf8)
        var builder = Self.builder()
        #expect(builder.scenario(first.id, line: first.location.line) == nil, "renamed")
        #expect(builder.scenario(row.id, line: row.location.line + 1) == nil, "not at that line")
        #expect(builder.scenario(row.id, line: row.location.line).map(Self.describe) == Self.describe(row))
        try FileManager.default.removeItem(atPath: path)
        var fresh = Self.builder()
        #expect(fresh.scenario(row.id, line: row.location.line) == nil, "the file is gone")
    }

    /// The builder keeps where each item is written, not the text: an item is read again when it is
    /// asked for, so a file changed after the builder first read it gives the scenario only if it is
    /// still there as it was, else none — never another one.
    @Test func aFileChangedAfterTheBuilderReadItGivesNoOtherScenario() throws {
        let path = try write(Self.plain)
        let loaded = try FakeSteps.loader.load(paths: [path])
        let first = try #require(loaded.first)
        let skipped = try #require(loaded.last)
        var builder = Self.builder()
        #expect(builder.scenario(first.id, line: first.location.line).map(Self.describe) == Self.describe(first))
        // Shorter text before the last item: its bytes now start earlier than the builder noted.
        try Self.plain.replacingOccurrences(of: "tearing down", with: "td")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let built = builder.scenario(skipped.id, line: skipped.location.line)
        #expect(built == nil || built.map(Self.describe) == Self.describe(skipped))
        // Renamed: none.
        try Self.plain.replacingOccurrences(of: "scenario: Skipped", with: "scenario: Later")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(builder.scenario(skipped.id, line: skipped.location.line) == nil)
    }
}
