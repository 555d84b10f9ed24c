/// A key the user pressed, decoded from the terminal.
enum Key: Sendable, Hashable {
    case up
    case down
    case left
    case right
    case pageUp
    case pageDown
    case home
    case end
    case enter
    case tab
    case escape
    case backspace
    /// The terminal changed size.
    case resize
    case character(Character)
}
