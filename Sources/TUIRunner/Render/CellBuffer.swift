/// An in-memory grid of cells that a frame is rendered into, and diffed against the previous frame.
///
/// Every `Character` takes one column (wide characters in scenario names are not measured).
package struct CellBuffer: Sendable, Hashable {
    /// A run of changed cells on one row that share a style.
    package struct Change: Sendable, Hashable {
        var x: Int
        var y: Int
        var text: String
        var style: Style
    }

    let width: Int
    let height: Int
    private(set) var cells: [Cell]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    /// Writes `text` from (`x`, `y`), clipped to `limit` columns and to the buffer; returns the columns written.
    @discardableResult
    mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, limit: Int = .max) -> Int {
        guard y >= 0, y < height else { return 0 }
        var column = x
        let end = min(width, x.addingReportingOverflow(limit).overflow ? width : x + limit)
        for character in text {
            if column >= end { break }
            if column >= 0 {
                let printable: Character = character.isNewline || character == "\t" ? " " : character
                cells[y * width + column] = Cell(character: printable, style: style)
            }
            column += 1
        }
        return max(0, column - x)
    }

    /// Fills a rectangle with one character.
    mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let cell = Cell(character: character, style: style)
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in max(0, rect.x)..<min(width, rect.maxX) { cells[y * width + x] = cell }
        }
    }

    /// Sets the style of every cell of a rectangle, keeping the characters.
    mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in max(0, rect.x)..<min(width, rect.maxX) { change(&cells[y * width + x].style) }
        }
    }

    /// The cells that differ from `previous`, grouped in runs; every cell when `previous` has another size.
    package func changes(since previous: CellBuffer?) -> [Change] {
        let full = previous.map { $0.width != width || $0.height != height } ?? true
        var changes: [Change] = []
        for y in 0..<height {
            var current: Change?
            for x in 0..<width {
                let index = y * width + x
                let cell = cells[index]
                if full || previous?.cells[index] != cell {
                    if var run = current, run.style == cell.style, run.x + run.text.count == x {
                        run.text.append(cell.character)
                        current = run
                    } else {
                        if let run = current { changes.append(run) }
                        current = Change(x: x, y: y, text: String(cell.character), style: cell.style)
                    }
                } else if let run = current {
                    changes.append(run)
                    current = nil
                }
            }
            if let run = current { changes.append(run) }
        }
        return changes
    }

    /// The characters, one line per row, trailing spaces removed (for snapshots).
    var text: String {
        var lines: [String] = []
        for y in 0..<height {
            var line = String(cells[(y * width)..<(y * width + width)].map(\.character))
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
