import Dispatch
import Foundation
import Scenarios
import Synchronization

/// Owns the terminal for one TUI session: signal handling and a restore that runs exactly once.
///
/// SIGINT/SIGTERM call `interrupt` the first time (cancel the run, then quit); a second one restores
/// the terminal and exits with 130. SIGWINCH calls `resize`.
final class TerminalSession: @unchecked Sendable {  // `interrupts` and `winch` are only touched under `lock`
    private let screen: any Screen
    private let restored = Mutex(false)
    private let lock = NSLock()
    private var interrupts: InterruptHandler?
    private var winch: (any DispatchSourceSignal)?

    init(screen: any Screen) {
        self.screen = screen
    }

    /// Installs the signal handlers (only for a real terminal).
    func handleSignals(interrupt: @escaping @Sendable () -> Void, resize: @escaping @Sendable () -> Void) {
        let interrupts = InterruptHandler(onFirst: interrupt) { [self] in
            restore()
            try? FileHandle.standardError.write(
                contentsOf: Data("Interrupted twice: quitting without a summary.\n".utf8)
            )
        }
        let winch = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        winch.setEventHandler { resize() }
        winch.resume()
        lock.withLock {
            self.interrupts = interrupts
            self.winch = winch
        }
    }

    /// Whether ``restore()`` has run.
    var isRestored: Bool { restored.withLock { $0 } }

    /// Ends curses mode and stops the signal handlers; only the first call does anything.
    func restore() {
        let first = restored.withLock { restored -> Bool in
            defer { restored = true }
            return !restored
        }
        guard first else { return }
        let (interrupts, winch) = lock.withLock {
            defer { self.interrupts = nil; self.winch = nil }
            return (self.interrupts, self.winch)
        }
        winch?.cancel()
        interrupts?.cancel()
        screen.end()
    }
}
