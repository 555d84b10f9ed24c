import Dispatch
import Foundation
import Synchronization

/// Owns the terminal for one TUI session: signal handling and a restore that runs exactly once.
///
/// SIGINT/SIGTERM call `interrupt` the first time (cancel the run, then quit); a second one restores
/// the terminal and exits with 130. SIGWINCH calls `resize`.
final class TerminalSession: @unchecked Sendable {  // `sources` is only touched under `lock`
    private let screen: any Screen
    private let restored = Mutex(false)
    private let signalCount = Mutex(0)
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []

    init(screen: any Screen) {
        self.screen = screen
    }

    /// Installs the signal handlers (only for a real terminal).
    func handleSignals(interrupt: @escaping @Sendable () -> Void, resize: @escaping @Sendable () -> Void) {
        var installed: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [self] in
                let count = signalCount.withLock { count in
                    count += 1
                    return count
                }
                if count == 1 {
                    interrupt()
                } else {
                    restore()
                    FileHandle.standardError.write(Data("Interrupted twice: quitting without a summary.\n".utf8))
                    exit(130)
                }
            }
            source.resume()
            installed.append(source)
        }
        let winch = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        winch.setEventHandler { resize() }
        winch.resume()
        installed.append(winch)
        lock.withLock { sources = installed }
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
        let installed = lock.withLock {
            defer { sources = [] }
            return sources
        }
        for source in installed { source.cancel() }
        screen.end()
        if !installed.isEmpty {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
    }
}
