import Foundation
import Scenarios
import Testing

@testable import TUIRunner

/// Compares rendered frames with the text files in `Snapshots/`; `RECORD_SNAPSHOTS=1` re-records them.
func assertSnapshot(
    _ frame: CellBuffer,
    named name: String,
    filePath: String = #filePath,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name).txt")
    let actual = frame.text
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map { !$0.isEmpty && $0 != "0" } ?? false
    guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record(
            "Recorded snapshot \(name).txt; check it and run again without RECORD_SNAPSHOTS.",
            sourceLocation: sourceLocation
        )
        return
    }
    #expect(actual == expected, "frame differs from Snapshots/\(name).txt", sourceLocation: sourceLocation)
}

struct SnapshotTests {
    let renderer = Renderer(glyphs: .unicode, theme: .colour)

    @Test func runInProgress() throws {
        var events: [RunEvent] = [.runStarted(Fixtures.plan())]
        events += Fixtures.passing(Fixtures.posting)
        events += Fixtures.failing(Fixtures.rejected).prefix(8)
        var state = Fixtures.state(events)
        state.now = .seconds(3)
        let frame = renderer.render(state, width: 100, height: 30)
        try assertSnapshot(frame, named: "run-in-progress")
        #expect(frame.text.contains("waiting 50 ms"))
    }

    @Test func statusLineShowsTheSeedAndTheShard() throws {
        var state = TUIState(statusNote: "seed 42  shard 2/3")
        for event in Fixtures.finishedRun() { state.apply(event) }
        let frame = renderer.render(state, width: 100, height: 30)
        try assertSnapshot(frame, named: "status-seed-and-shard")
        let statusLine = frame.text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(statusLine.contains("finished  seed 42  shard 2/3 ["), "\(statusLine)")
    }

    @Test func finishedRunWithAFailureSelected() throws {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.home)
        _ = state.handle(.down)
        _ = state.handle(.down)
        let frame = renderer.render(state, width: 100, height: 30)
        try assertSnapshot(frame, named: "finished-failure-detail")
        let text = frame.text
        #expect(text.contains(Fixtures.failure))
        #expect(text.contains("at Scenarios/reviews.yml:12"))
        #expect(text.contains("POST /422 → 422"))
        #expect(text.contains("5/5  1 failed"))
    }

    @Test func failedFilter() throws {
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.character("f"))
        try assertSnapshot(renderer.render(state, width: 100, height: 30), named: "failed-filter")
    }

    @Test func inspector() throws {
        var state = Fixtures.state(Fixtures.finishedRun(), inspector: true)
        state.record(Fixtures.inspection(), for: Fixtures.rejected)
        _ = state.handle(.character("f"))
        _ = state.handle(.character("i"))
        _ = state.handle(.down)
        try assertSnapshot(renderer.render(state, width: 100, height: 30), named: "inspector")
    }

    @Test func asciiFallbackAndMonochrome() throws {
        let ascii = Renderer(glyphs: .ascii, theme: .monochrome)
        var state = Fixtures.state(Fixtures.finishedRun())
        _ = state.handle(.character("f"))
        let frame = ascii.render(state, width: 80, height: 24)
        try assertSnapshot(frame, named: "ascii-monochrome")
        #expect(frame.cells.allSatisfy { $0.style.colour == .default })
        let drawn = Set(frame.text)
        #expect(drawn.isDisjoint(with: ["┌", "│", "─", "✓", "✗", "█", "▾"]), "no UTF-8 glyphs or box drawing")
    }

    @Test func failedGlyphIsRedInColour() throws {
        let state = Fixtures.state(Fixtures.finishedRun())
        let frame = renderer.render(state, width: 100, height: 30)
        let failed = frame.cells.filter { $0.character == "✗" }
        #expect(!failed.isEmpty)
        #expect(failed.allSatisfy { $0.style.colour == .red })
    }
}
