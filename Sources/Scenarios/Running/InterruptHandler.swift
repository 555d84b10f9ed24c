import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM during a run: the first one calls `onFirst` (cancel the run
/// gracefully — the current scenario's tear-down still runs); a second one calls `onSecond` (restore
/// what must be restored) and exits at once with 130. Shared by the headless runner and the TUI.
package final class InterruptHandler: Sendable {
    private let sources: Mutex<[any DispatchSourceSignal]>

    private let signals: [Int32]

    /// Handles `signals` (by default SIGINT and SIGTERM) until ``cancel()``.
    package init(
        signals: [Int32]? = nil,
        onFirst: @escaping @Sendable () -> Void,
        onSecond: @escaping @Sendable () -> Void = {}
    ) {
        let signals = signals ?? [SIGINT, SIGTERM]
        self.signals = signals
        let count = Mutex(0)
        var installed: [any DispatchSourceSignal] = []
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                let seen = count.withLock { count in
                    count += 1
                    return count
                }
                if seen == 1 {
                    onFirst()
                } else {
                    onSecond()
                    exit(130)
                }
            }
            source.resume()
            installed.append(source)
        }
        sources = Mutex(installed)
    }

    /// Stops handling the signals and gives them back their default action; later calls do nothing.
    package func cancel() {
        let installed = sources.withLock { sources in
            defer { sources = [] }
            return sources
        }
        guard !installed.isEmpty else { return }
        for source in installed { source.cancel() }
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
    }
}
