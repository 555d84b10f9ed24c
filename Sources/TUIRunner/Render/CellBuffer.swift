import Diagnostics

/// An in-memory grid of cells that a frame is rendered into, and diffed against the previous frame.
///
/// A wide (CJK) character takes two columns: its cell and a ``Cell/continuation`` after it, which the
/// terminal fills; a control character is shown in caret notation (``TerminalText``), never sent.
package struct CellBuffer: Sendable, Hashable {
    /// A run of changed cells on one row that share a style.
    package struct Change: Sendable, Hashable {
        var x: Int
        var y: Int
        var text: String
        var style: Style
        /// The column after the run (its text can be narrower or wider than its columns in characters).
        var end: Int

        init(x: Int, y: Int, text: String, style: Style, end: Int) {
            self.x = x
            self.y = y
            self.text = text
            self.style = style
            self.end = end
        }
    }

    /// Whether a wide character was ever written: until one is, no cell is a continuation and the
    /// checks for one are skipped (a frame writes thousands of cells).
    private var holdsWideCharacters = false
    let width: Int
    let height: Int
    private(set) var cells: [Cell]

    /// Equal when the same cells show (how they were written aside).
    package static func == (lhs: CellBuffer, rhs: CellBuffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(cells)
    }

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
            // Printable ASCII, nearly every character of a frame: one column, nothing to show instead.
            if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F {
                if column >= 0 { set(Cell(character: character, style: style), x: column, y: y) }
                column += 1
                continue
            }
            for shown in Self.shown(character) {
                if column >= end { break }
                let columns = TerminalText.columns(of: shown)
                if columns == 2, column + 1 >= end {
                    // Half a wide character does not fit: a space instead.
                    if column >= 0 { set(Cell(character: " ", style: style), x: column, y: y) }
                    column += 1
                    break
                }
                if column >= 0 { set(Cell(character: shown, style: style), x: column, y: y) }
                if columns == 2, column + 1 >= 0 {
                    set(Cell(character: Cell.continuation, style: style), x: column + 1, y: y)
                }
                column += columns
            }
        }
        return max(0, column - x)
    }

    /// Sets one cell, blanking the other half of a wide character it cuts.
    private mutating func set(_ cell: Cell, x: Int, y: Int) {
        let index = y * width + x
        if holdsWideCharacters {
            if cells[index].character == Cell.continuation, cell.character != Cell.continuation, x > 0 {
                cells[index - 1].character = " "
            }
            if x + 1 < width, cells[index + 1].character == Cell.continuation,
                TerminalText.columns(of: cell.character) == 1 || cell.character == Cell.continuation
            {
                cells[index + 1].character = " "
            }
        }
        if cell.character == Cell.continuation { holdsWideCharacters = true }
        cells[index] = cell
    }

    /// What a character is drawn as: a line break or tab as a space, another control character in
    /// caret notation (two cells), anything else itself.
    private static func shown(_ character: Character) -> [Character] {
        if character.isNewline || character == "\t" { return [" "] }
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
            TerminalText.isControl(scalar)
        else { return [character] }
        return Array(TerminalText.caretNotation(scalar))
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
    /// A wide character and its continuation are one unit, written whole when either changed; a
    /// continuation left without its wide character (overwritten in part) is written as a space.
    package func changes(since previous: CellBuffer?) -> [Change] {
        let full = previous.map { $0.width != width || $0.height != height } ?? true
        let before = full ? [] : previous?.cells ?? []
        let wide = holdsWideCharacters
        var changes: [Change] = []
        for y in 0..<height {
            var current: Change?
            var x = 0
            while x < width {
                let index = y * width + x
                let cell = cells[index]
                let span = wide && x + 1 < width && cells[index + 1].character == Cell.continuation ? 2 : 1
                let changed =
                    full || before[index] != cell || (span == 2 && before[index + 1] != cells[index + 1])
                if changed {
                    let shown = wide && cell.character == Cell.continuation ? " " : cell.character
                    if current != nil, current?.style == cell.style, current?.end == x {
                        current?.text.append(shown)
                        current?.end = x + span
                    } else {
                        if let run = current { changes.append(run) }
                        current = Change(x: x, y: y, text: String(shown), style: cell.style, end: x + span)
                    }
                } else if let run = current {
                    changes.append(run)
                    current = nil
                }
                x += span
            }
            if let run = current { changes.append(run) }
        }
        return changes
    }

    /// The characters, one line per row, trailing spaces removed (for snapshots).
    var text: String {
        var lines: [String] = []
        for y in 0..<height {
            var line = String(
                cells[(y * width)..<(y * width + width)].map(\.character).filter { $0 != Cell.continuation }
            )
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
