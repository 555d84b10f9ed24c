/// The characters the renderer draws with: UTF-8, or ASCII when the locale is not UTF-8.
struct Glyphs: Sendable, Hashable {
    var pending: Character
    var running: Character
    var passed: Character
    var failed: Character
    var skipped: Character
    var expanded: Character
    var collapsed: Character
    var horizontal: Character
    var vertical: Character
    var topLeft: Character
    var topRight: Character
    var bottomLeft: Character
    var bottomRight: Character
    var barFull: Character
    var barEmpty: Character
    var arrow: String
    var ellipsis: String

    static let unicode = Glyphs(
        pending: "·", running: "●", passed: "✓", failed: "✗", skipped: "–", expanded: "▾", collapsed: "▸",
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        barFull: "█", barEmpty: "░", arrow: "→", ellipsis: "…"
    )

    static let ascii = Glyphs(
        pending: ".", running: "*", passed: "+", failed: "x", skipped: "-", expanded: "v", collapsed: ">",
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        barFull: "#", barEmpty: ".", arrow: "->", ellipsis: "~"
    )

    func status(_ status: ScenarioStatus) -> Character {
        switch status {
        case .pending: pending
        case .running: running
        case .passed: passed
        case .failed: failed
        case .skipped: skipped
        }
    }
}
