/// One terminal cell: a character (one column wide) and its style.
struct Cell: Sendable, Hashable {
    var character: Character
    var style: Style

    static let blank = Cell(character: " ", style: .plain)
    /// The second column of a wide character: drawn by the terminal, never written.
    static let continuation: Character = "\u{0}"
}
