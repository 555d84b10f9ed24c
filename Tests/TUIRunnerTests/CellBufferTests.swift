import Diagnostics
import Scenarios
import Testing

@testable import TUIRunner

/// Cells as the terminal shows them: a wide character takes two columns, a control character is shown in
/// caret notation, and a changed half of a wide character redraws it whole.
struct CellBufferTests {
    @Test func aWideCharacterTakesTwoColumns() {
        var buffer = CellBuffer(width: 10, height: 1)
        let written = buffer.put("予約ab", x: 0, y: 0)
        #expect(written == 6)
        #expect(buffer.text == "予約ab\n")
        #expect(buffer[1, 0].character == Cell.continuation)
        #expect(buffer[4, 0].character == "a")
    }

    @Test func aWideCharacterThatDoesNotFitIsASpace() {
        var buffer = CellBuffer(width: 10, height: 1)
        let written = buffer.put("ab予", x: 0, y: 0, limit: 3)
        #expect(written == 3)
        #expect(buffer.text == "ab\n")
        #expect(buffer[3, 0].character == " ", "nothing past the limit")
    }

    @Test func controlCharactersAreShownInCaretNotation() {
        var buffer = CellBuffer(width: 20, height: 1)
        buffer.put("a\u{8}b\u{1B}[2J\u{9B}", x: 0, y: 0)
        #expect(buffer.text == "a^Hb^[[2J~[\n")
        #expect(TerminalText.escaped("a\u{1B}]0;t\u{7}b\nc") == "a^[]0;t^Gb\nc")
        #expect(TerminalText.escaped("a\nb", keepingLineBreaks: false) == "a^Jb")
    }

    @Test func changesCoverWideCharactersWholeAndOverwrittenHalves() {
        var before = CellBuffer(width: 6, height: 1)
        before.put("予約", x: 0, y: 0)
        var after = before
        after.put("x", x: 1, y: 0)  // the second half of 予: the first half becomes a space
        #expect(after.text == " x約\n")
        let changes = after.changes(since: before)
        #expect(changes.count == 1)
        #expect(changes.first?.x == 0)
        #expect(changes.first?.text == " x")

        let full = after.changes(since: nil)
        #expect(full.map(\.text) == [" x約  "], "the continuation is not written: the terminal fills it")
    }

    /// A 100,000-character paste into the filter is filtered once per batch of keys, not per character
    /// (a bound with a wide margin, for a loaded machine: per character it took 55 s).
    @Test func aLongPasteIntoTheFilterIsFilteredOnce() {
        var state = Fixtures.state([.runStarted(Fixtures.plan())])
        _ = state.handle(.character("/"))
        let paste = Array(repeating: Key.character("x"), count: 100_000)
        let clock = ContinuousClock()
        let took = clock.measure { _ = state.handle(paste) }
        #expect(state.filterText.count == 100_000)
        #expect(state.isEditingFilter)
        #expect(took < .seconds(15), "\(took)")
        _ = state.handle([.escape])
        #expect(state.filterText.isEmpty)
    }
}
