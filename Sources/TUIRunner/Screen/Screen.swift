/// A terminal the runner draws frames on and reads keys from.
///
/// ``NCursesScreen`` drives a real terminal; ``MemoryScreen`` keeps frames in memory for tests.
protocol Screen: AnyObject, Sendable {
    /// Columns and rows.
    var size: (width: Int, height: Int) { get }
    /// Shows `frame`, writing only the cells that changed since the last frame.
    func present(_ frame: CellBuffer)
    /// Re-reads the terminal's size after a resize.
    func refreshSize()
    /// Starts delivering keys (on a thread of the screen's own), as many at once as were read: a paste
    /// arrives as one batch, so that the filter is recomputed once per batch, not per character.
    func startReadingKeys(_ deliver: @escaping @Sendable ([Key]) -> Void)
    /// Restores the terminal. Called once by ``TerminalSession``.
    func end()
}
