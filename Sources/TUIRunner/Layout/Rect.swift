/// A rectangle of terminal cells; `x`/`y` are the column and row of its top-left cell.
struct Rect: Sendable, Hashable, CustomStringConvertible {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The rectangle without a border of one cell.
    var inner: Rect { Rect(x: x + 1, y: y + 1, width: max(0, width - 2), height: max(0, height - 2)) }

    var description: String { "(\(x),\(y) \(width)x\(height))" }
}
