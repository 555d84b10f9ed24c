import CNCurses
import Diagnostics
package import Scenarios

/// The live ncurses runner: shows every scenario and step as it runs, re-runs on request, and
/// restores the terminal on every way out.
///
/// ```swift
/// let outcome = await TerminalRunner.run(configuration: TUIConfiguration()) { ids, onEvent in
///     await runner.run(ids.map(selected) ?? scenarios, onEvent: onEvent)
/// } cancel: {
///     runner.cancel()
/// }
/// for event in outcome.events { plainReporter.handle(event) }   // after the terminal is restored
/// ```
package enum TerminalRunner {
    /// Why the live runner cannot take this terminal, in words (`TERM is not set`), or `nil` when it can:
    /// ncurses would print "Error opening terminal" and exit, so the caller runs headless instead.
    package static func unavailableReason(environment: [String: String]) -> String? {
        guard let term = environment["TERM"], !term.isEmpty else { return "TERM is not set" }
        if term == "dumb" { return "TERM is 'dumb'" }
        guard cn_terminal_known() != 0 else {
            return "TERM '\(TerminalText.escaped(term, keepingLineBreaks: false))' is not in the terminfo database"
        }
        return nil
    }

    /// Takes over the terminal until the user quits (or the run ends with `exitWhenFinished`).
    ///
    /// - Parameters:
    ///   - run: runs the scenarios with these ids (nil: the initial selection), passing every event on;
    ///     called again for re-runs, never twice at once.
    ///   - cancel: cancels the run in progress (its current scenario's tear-down still runs).
    ///   - controls: called once, when the terminal is taken, with what the caller's signal handlers can
    ///     do to the session (interrupt it, restore the terminal); the caller owns SIGINT, SIGTERM and
    ///     SIGHUP.
    ///   - watch: with `--watch`, called once with where to send ``WatchUpdate``s; returns how to stop
    ///     watching (called when the runner quits).
    package static func run(
        configuration: TUIConfiguration,
        run:
            @escaping @Sendable (_ ids: [ScenarioID]?, _ onEvent: @escaping @Sendable (RunEvent) -> Void) async ->
            RunSummary,
        cancel: @escaping @Sendable () -> Void,
        controls: (TerminalControls) -> Void = { _ in },
        watch: ((@escaping @Sendable (WatchUpdate) -> Void) -> @Sendable () -> Void)? = nil
    ) async -> TUIOutcome {
        let screen = NCursesScreen(wantColours: configuration.colours)
        let session = TerminalSession(screen: screen)
        defer { session.restore() }
        let renderer = Renderer(glyphs: screen.isUTF8 ? .unicode : .ascii, theme: Theme(colours: screen.hasColours))
        let loop = RunnerLoop(
            screen: screen,
            renderer: renderer,
            configuration: configuration,
            run: run,
            cancel: cancel
        )
        let inputs = loop.inputs
        session.handleResize { inputs.yield(.resize) }
        controls(TerminalControls(interrupt: { inputs.yield(.interrupt) }, restoreTerminal: { session.restore() }))
        let stopWatching = watch? { inputs.yield(.watched($0)) }
        defer { stopWatching?() }
        return await loop.run()
    }
}
