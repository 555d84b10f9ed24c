/// How the terminal runner behaves.
public struct TUIConfiguration: Sendable {
    /// Quit when the first run finishes (`--exit`, for scripts).
    public var exitWhenFinished: Bool
    /// Colours, unless `NO_COLOR` is set; a terminal without colours gets monochrome anyway.
    public var colours: Bool
    /// The state a scenario left, taken when it finishes (`KIF_SKIP_TEAR_DOWN`); nil disables the inspector.
    public var inspector: (@Sendable () -> InspectorSnapshot?)?

    public init(
        exitWhenFinished: Bool = false,
        colours: Bool = true,
        inspector: (@Sendable () -> InspectorSnapshot?)? = nil
    ) {
        self.exitWhenFinished = exitWhenFinished
        self.colours = colours
        self.inspector = inspector
    }
}
