/// How the terminal runner behaves.
package struct TUIConfiguration: Sendable {
    /// Quit when the first run finishes (`--exit`, for scripts).
    package var exitWhenFinished: Bool
    /// Colours, unless `NO_COLOR` is set; a terminal without colours gets monochrome anyway.
    package var colours: Bool
    /// The state a scenario left, taken when it finishes (`KIF_SKIP_TEAR_DOWN`); nil disables the inspector.
    package var inspector: (@Sendable () -> InspectorSnapshot?)?
    /// How the run was ordered or cut, shown in the status line (`seed 42  shard 2/3`).
    package var statusNote: String?

    package init(
        exitWhenFinished: Bool = false,
        colours: Bool = true,
        inspector: (@Sendable () -> InspectorSnapshot?)? = nil,
        statusNote: String? = nil
    ) {
        self.exitWhenFinished = exitWhenFinished
        self.colours = colours
        self.inspector = inspector
        self.statusNote = statusNote
    }
}
