import Dispatch
import Foundation
import Synchronization

/// Owns the terminal for one TUI session: the resize signal (SIGWINCH) and a restore that runs exactly
/// once.
///
/// SIGINT, SIGTERM and SIGHUP are the program's to handle, not this library's: it drives the session
/// through ``TerminalControls``.
final class TerminalSession: @unchecked Sendable {  // `winch` is only touched under `lock`
    private let screen: any Screen
    private let restored = Mutex(false)
    /// Held for the whole of ``restore()``: see there.
    private let restoring = NSLock()
    private let lock = NSLock()
    private var winch: (any DispatchSourceSignal)?

    init(screen: any Screen) {
        self.screen = screen
    }

    /// Calls `resize` on every SIGWINCH until ``restore()`` (only for a real terminal).
    func handleResize(_ resize: @escaping @Sendable () -> Void) {
        let winch = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        winch.setEventHandler { resize() }
        winch.resume()
        lock.withLock { self.winch = winch }
    }

    /// Whether ``restore()`` has run.
    var isRestored: Bool { restored.withLock { $0 } }

    /// Ends curses mode and stops the resize handler; only the first call does anything, and every call
    /// returns only once the terminal is restored. (A second signal's handler that came while the loop's
    /// own restore was under way — waiting for the key thread, before `endwin` — returned at once and
    /// exited with the terminal still in curses mode: no echo, no line editing.)
    func restore() {
        restoring.lock()
        defer { restoring.unlock() }
        let first = restored.withLock { restored -> Bool in
            defer { restored = true }
            return !restored
        }
        guard first else { return }
        let winch = lock.withLock {
            defer { self.winch = nil }
            return self.winch
        }
        winch?.cancel()
        screen.end()
    }
}
