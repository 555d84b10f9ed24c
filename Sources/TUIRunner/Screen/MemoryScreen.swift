import Synchronization

/// An in-memory ``Screen``: keeps the last frame and counts what a terminal would have been sent.
final class MemoryScreen: Screen {
    private struct State {
        var width: Int
        var height: Int
        var frame: CellBuffer?
        var writtenCells = 0
        var frames = 0
        var endCount = 0
        var deliver: (@Sendable ([Key]) -> Void)?
    }

    private let state: Mutex<State>

    init(width: Int, height: Int) {
        state = Mutex(State(width: width, height: height))
    }

    var size: (width: Int, height: Int) { state.withLock { ($0.width, $0.height) } }

    func present(_ frame: CellBuffer) {
        state.withLock { state in
            let changes = frame.changes(since: state.frame)
            state.writtenCells += changes.reduce(0) { $0 + $1.text.count }
            state.frame = frame
            state.frames += 1
        }
    }

    func refreshSize() {}

    func startReadingKeys(_ deliver: @escaping @Sendable ([Key]) -> Void) {
        state.withLock { $0.deliver = deliver }
    }

    func end() {
        state.withLock { $0.endCount += 1 }
    }

    // MARK: For tests

    /// Types a key as if the user pressed it.
    func press(_ key: Key) {
        let deliver = state.withLock { $0.deliver }
        deliver?([key])
    }

    /// Types keys in one read, as a paste arrives.
    func paste(_ keys: [Key]) {
        let deliver = state.withLock { $0.deliver }
        deliver?(keys)
    }

    /// Changes the size (call the loop's resize afterwards, as SIGWINCH would).
    func resize(width: Int, height: Int) {
        state.withLock {
            $0.width = width
            $0.height = height
        }
    }

    var frame: CellBuffer? { state.withLock { $0.frame } }
    var writtenCells: Int { state.withLock { $0.writtenCells } }
    var frames: Int { state.withLock { $0.frames } }
    var endCount: Int { state.withLock { $0.endCount } }
    var isReadingKeys: Bool { state.withLock { $0.deliver != nil } }
}
