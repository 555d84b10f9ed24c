import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP during a run: the first one calls `onFirst` (cancel the run
/// gracefully — the current scenario's tear-down still runs); a second one kills the
/// ``ChildProcesses``, calls `onSecond` (restore what must be restored) and exits at once with 130.
/// Used by the headless runner, the live runner (`TUIRun`), the worker and `serve`: the program
/// owns these signals and the exit, the libraries never do.
///
/// The handlers are DispatchSource signal sources on a global queue, not swift-service-lifecycle's
/// `UnixSignals`: its async iterator needs the Swift cooperative pool, which an app step blocking its
/// threads can starve in `--in-process` mode, and a second Ctrl-C must still exit at once.
///
/// ```swift
/// let interrupts = InterruptHandler(onFirst: { runner.cancel() })
/// defer { interrupts.cancel() }
/// ```
package final class InterruptHandler: Sendable {
    private let sources: Mutex<[any DispatchSourceSignal]>

    private let signals: [Int32]

    /// Handles `signals` (by default SIGINT, SIGTERM and SIGHUP) until ``cancel()``.
    package init(
        signals: [Int32]? = nil,
        onFirst: @escaping @Sendable () -> Void,
        onSecond: @escaping @Sendable () -> Void = {}
    ) {
        let signals = signals ?? [SIGINT, SIGTERM, SIGHUP]
        self.signals = signals
        let count = Mutex(0)
        var installed: [any DispatchSourceSignal] = []
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [source] in
                // Signals that arrive before the handler runs are one event: `data` says how many.
                let seen = count.withLock { count in
                    count += max(1, Int(source.data))
                    return count
                }
                if seen == 1 {
                    onFirst()
                } else {
                    ChildProcesses.killAll()
                    onSecond()
                    AppExitGuard.disarm()
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

/// The worker processes this process started and has not seen end: whatever way the runner leaves
/// (a second interrupt exits at once), none of them outlives it.
package enum ChildProcesses {
    private static let running = Mutex<Set<pid_t>>([])

    static func add(_ pid: pid_t) {
        running.withLock { _ = $0.insert(pid) }
    }

    static func remove(_ pid: pid_t) {
        running.withLock { _ = $0.remove(pid) }
    }

    /// Forgets every child: this process is a worker forked from the one that started them.
    static func forgetAll() {
        running.withLock { $0 = [] }
    }

    /// Sends SIGKILL to every child still running.
    static func killAll() {
        for pid in running.withLock({ $0 }) { kill(pid, SIGKILL) }
    }
}
