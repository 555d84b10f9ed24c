/// Where each pane goes for a terminal size: pure rectangle arithmetic.
///
/// ```
/// status   (row 0)
/// tree     | steps
///          | detail
/// footer   (last row)
/// ```
enum Layout: Sendable, Hashable {
    /// The panes of a large-enough terminal.
    struct Panes: Sendable, Hashable {
        var status: Rect
        var tree: Rect
        var steps: Rect
        var detail: Rect
        var footer: Rect

        /// The right-hand column (steps and detail), where the inspector and help are drawn.
        var right: Rect { Rect(x: steps.x, y: steps.y, width: steps.width, height: steps.height + detail.height) }
    }

    case panes(Panes)
    /// The terminal is smaller than ``minimumWidth`` × ``minimumHeight``.
    case tooSmall(width: Int, height: Int)

    static let minimumWidth = 60
    static let minimumHeight = 12

    /// The layout for a terminal of `width` columns and `height` rows.
    static func make(width: Int, height: Int) -> Layout {
        guard width >= minimumWidth, height >= minimumHeight else { return .tooSmall(width: width, height: height) }
        let bodyY = 1
        let bodyHeight = height - 2
        let treeWidth = min(max(width * 9 / 20, 28), width - 30)
        let rightWidth = width - treeWidth
        let stepsHeight = max(5, bodyHeight * 11 / 20)
        return .panes(
            Panes(
                status: Rect(x: 0, y: 0, width: width, height: 1),
                tree: Rect(x: 0, y: bodyY, width: treeWidth, height: bodyHeight),
                steps: Rect(x: treeWidth, y: bodyY, width: rightWidth, height: stepsHeight),
                detail: Rect(x: treeWidth, y: bodyY + stepsHeight, width: rightWidth, height: bodyHeight - stepsHeight),
                footer: Rect(x: 0, y: height - 1, width: width, height: 1)
            )
        )
    }
}
