/// The characters the renderer draws with: UTF-8, or ASCII when the locale is not UTF-8.
struct Glyphs: Sendable, Hashable {
    var pending: Character
    var running: Character
    var passed: Character
    var failed: Character
    var skipped: Character
    /// A warned step, and a scenario whose leak check found something (in the tree, instead of ✓ or ✗).
    var leaked: Character
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
    var bullet: String
    var ellipsis: String

    static let unicode = Glyphs(
        pending: "·",
        running: "●",
        passed: "✓",
        failed: "✗",
        skipped: "–",
        leaked: "⚠",
        expanded: "▾",
        collapsed: "▸",
        horizontal: "─",
        vertical: "│",
        topLeft: "┌",
        topRight: "┐",
        bottomLeft: "└",
        bottomRight: "┘",
        barFull: "█",
        barEmpty: "░",
        arrow: "→",
        bullet: "•",
        ellipsis: "…"
    )

    static let ascii = Glyphs(
        pending: ".",
        running: "*",
        passed: "+",
        failed: "x",
        skipped: "-",
        leaked: "!",
        expanded: "v",
        collapsed: ">",
        horizontal: "-",
        vertical: "|",
        topLeft: "+",
        topRight: "+",
        bottomLeft: "+",
        bottomRight: "+",
        barFull: "#",
        barEmpty: ".",
        arrow: "->",
        bullet: "-",
        ellipsis: "~"
    )

    func status(_ status: ScenarioStatus) -> Character {
        switch status {
        case .pending: pending
        case .running: running
        case .passed: passed
        case .failed: failed
        case .skipped: skipped
        case .warned: leaked
        }
    }
}
