import Testing

@testable import TUIRunner

struct LayoutTests {
    private func layoutPanes(_ width: Int, _ height: Int) -> Layout.Panes? {
        if case .panes(let panes) = Layout.make(width: width, height: height) { return panes }
        return nil
    }

    /// Panes tile the body without overlapping, between the status line and the footer.
    private func expectTiled(_ panes: Layout.Panes, width: Int, height: Int) {
        #expect(panes.status == Rect(x: 0, y: 0, width: width, height: 1))
        #expect(panes.footer == Rect(x: 0, y: height - 1, width: width, height: 1))
        #expect(panes.tree.y == 1 && panes.tree.height == height - 2)
        #expect(panes.tree.maxX == panes.steps.x)
        #expect(panes.steps.maxX == width && panes.detail.maxX == width)
        #expect(panes.steps.maxY == panes.detail.y)
        #expect(panes.detail.maxY == height - 1)
        #expect(panes.right == Rect(x: panes.steps.x, y: 1, width: panes.steps.width, height: height - 2))
    }

    @Test func standardTerminal80x24() throws {
        let panes = try #require(layoutPanes(80, 24))
        expectTiled(panes, width: 80, height: 24)
        #expect(panes.tree == Rect(x: 0, y: 1, width: 36, height: 22))
        #expect(panes.steps == Rect(x: 36, y: 1, width: 44, height: 12))
        #expect(panes.detail == Rect(x: 36, y: 13, width: 44, height: 10))
    }

    @Test func largeTerminal120x40() throws {
        let panes = try #require(layoutPanes(120, 40))
        expectTiled(panes, width: 120, height: 40)
        #expect(panes.tree == Rect(x: 0, y: 1, width: 54, height: 38))
        #expect(panes.steps == Rect(x: 54, y: 1, width: 66, height: 20))
        #expect(panes.detail == Rect(x: 54, y: 21, width: 66, height: 18))
    }

    @Test func tooSmallTerminal() {
        #expect(Layout.make(width: 59, height: 24) == .tooSmall(width: 59, height: 24))
        #expect(Layout.make(width: 80, height: 11) == .tooSmall(width: 80, height: 11))
        #expect(Layout.make(width: 0, height: 0) == .tooSmall(width: 0, height: 0))
        #expect(layoutPanes(60, 12) != nil, "the minimum size fits")
    }

    @Test func tooSmallRendersOneLineMessage() {
        let frame = Renderer().render(Fixtures.state(Fixtures.finishedRun()), width: 40, height: 6)
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Terminal too small (40x6): needs 60x12.")
        #expect(lines.dropFirst().allSatisfy { $0.isEmpty })
    }

    @Test func scrollKeepsTheSelectionInView() {
        #expect(Renderer.scrollOffset(selected: 3, count: 10, height: 20) == 0)
        #expect(Renderer.scrollOffset(selected: 50, count: 100, height: 20) == 40)
        #expect(Renderer.scrollOffset(selected: 99, count: 100, height: 20) == 80)
    }
}
