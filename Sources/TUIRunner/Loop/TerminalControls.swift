/// What the program running the live runner can do to it from outside the event loop — from its
/// signal handlers: the program, not this library, owns SIGINT, SIGTERM and SIGHUP and the exit.
///
/// ```swift
/// var interrupts: InterruptHandler?
/// defer { interrupts?.cancel() }
/// let outcome = await TerminalRunner.run(configuration: configuration, run: run, cancel: cancel) { controls in
///     interrupts = InterruptHandler(onFirst: { controls.interrupt() }) { controls.restoreTerminal() }
/// }
/// ```
package struct TerminalControls: Sendable {
    /// What a first Ctrl-C does: cancels the run in progress (its current scenario's tear-down still
    /// runs), then quits the live runner.
    package let interrupt: @Sendable () -> Void
    /// Restores the terminal now (before the program exits at once); only the first restore of a
    /// session does anything.
    package let restoreTerminal: @Sendable () -> Void
}
