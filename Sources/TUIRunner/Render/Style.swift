/// How a cell looks: a foreground colour and attributes. Backends map it to the terminal.
struct Style: Sendable, Hashable {
    enum Colour: UInt8, Sendable, Hashable, CaseIterable {
        case `default`
        case red
        case green
        case yellow
        case blue
        case magenta
        case cyan
    }

    var colour: Colour = .default
    var bold = false
    var dim = false
    var reverse = false
    var underline = false

    static let plain = Style()
}
