/// The styles of the renderer's roles, in colour or monochrome (no colour terminal, or `NO_COLOR`).
struct Theme: Sendable, Hashable {
    enum Role: Sendable, Hashable {
        case passed
        case failed
        case running
        case skipped
        case warned
        case pending
        case title
        case border
        case dim
        case statusBar
        case key
        case stubbed
    }

    var colours: Bool

    static let colour = Theme(colours: true)
    static let monochrome = Theme(colours: false)

    func style(_ role: Role) -> Style {
        if colours {
            switch role {
            case .passed: Style(colour: .green)
            case .failed: Style(colour: .red, bold: true)
            case .running: Style(colour: .cyan, bold: true)
            case .skipped: Style(colour: .yellow)
            case .warned: Style(colour: .yellow, bold: true)
            case .pending, .dim: Style(dim: true)
            case .title: Style(bold: true)
            case .border: Style(colour: .blue)
            case .statusBar: Style(reverse: true)
            case .key: Style(colour: .cyan)
            case .stubbed: Style(colour: .magenta, bold: true)
            }
        } else {
            switch role {
            case .passed, .border: Style()
            case .failed, .running, .title, .stubbed, .warned: Style(bold: true)
            case .skipped, .pending, .dim: Style(dim: true)
            case .statusBar: Style(reverse: true)
            case .key: Style(underline: true)
            }
        }
    }

    func style(for status: ScenarioStatus) -> Style {
        switch status {
        case .pending: style(.pending)
        case .running: style(.running)
        case .passed: style(.passed)
        case .failed: style(.failed)
        case .skipped: style(.skipped)
        case .warned: style(.warned)
        }
    }
}
