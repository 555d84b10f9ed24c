/// Where one item of a file's `scenarios:` list is written, and the file's own keys: the bytes of each
/// in the file, and the lines before each. The parent of workers finds them as it loads the file
/// (``ScenarioFileChunks``) and sends them with each scenario it hands over, so that a worker reads that
/// item and those keys again (``ScenarioBuilder``) — never the whole file, which it would otherwise read
/// and split again for each file it is handed a scenario of.
///
/// ```swift
/// let source = ItemSource(item: .init(bytes: 120..<188, lineOffset: 6), keys: [.init(bytes: 0..<18, lineOffset: 0)])
/// ```
package struct ItemSource: Sendable, Hashable {
    /// Some bytes of the file, and how many lines come before them.
    package struct Part: Sendable, Hashable {
        package var bytes: Range<Int>
        package var lineOffset: Int

        package init(bytes: Range<Int>, lineOffset: Int) {
            self.bytes = bytes
            self.lineOffset = lineOffset
        }
    }

    /// The item of the `scenarios:` list (an outline's item: every row's).
    package var item: Part
    /// Each of the file's own keys (`feature:`, `set up:`, …), in the file's order.
    package var keys: [Part]

    package init(item: Part, keys: [Part]) {
        self.item = item
        self.keys = keys
    }
}
