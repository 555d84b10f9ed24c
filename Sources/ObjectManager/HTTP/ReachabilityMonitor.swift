import Synchronization

/// Probes one host every `interval` and tells its observers when the status changes.
///
/// An ``HTTPClient`` that monitors reachability makes its own monitor, unless it is given one to share:
/// ``TestFactory`` shares one monitor for the base URL's host across every manager it sets up, so a
/// scenario's set-up subscribes to a status that is already known instead of probing the network again.
///
/// ```swift
/// let monitor = ReachabilityMonitor(host: "127.0.0.1")
/// let status = await monitor.start()                   // the first probe; then every 2 s
/// let observation = monitor.observe { print($0) }       // on every change
/// monitor.stop()
/// ```
package final class ReachabilityMonitor: Sendable {
    package let host: String
    package let interval: Duration
    private let probe: any ReachabilityProbe
    private let changes = Observers<ReachabilityStatus>()
    private let state = Mutex(State())

    private struct State {
        var status: ReachabilityStatus?
        var polling: Task<Void, Never>?
    }

    package init(
        host: String,
        probe: any ReachabilityProbe = InterfaceReachabilityProbe(),
        interval: Duration = .seconds(2)
    ) {
        self.host = host
        self.probe = probe
        self.interval = interval
    }

    deinit {
        state.withLock { $0.polling?.cancel() }
    }

    /// The last probed status; `nil` before the first probe.
    package var status: ReachabilityStatus? { state.withLock { $0.status } }

    /// Probes the host unless a probe already answered, starts polling if it is not running, and
    /// returns the current status.
    @discardableResult
    package func start() async -> ReachabilityStatus {
        let (known, polling) = state.withLock { ($0.status, $0.polling != nil) }
        let status: ReachabilityStatus
        if let known {
            status = known
        } else {
            status = await probeStatus()
            record(status)
        }
        if !polling {
            let task = Task { [weak self, interval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled, let self else { return }
                    self.record(await self.probeStatus())
                }
            }
            let installed = state.withLock { state -> Bool in
                guard state.polling == nil else { return false }
                state.polling = task
                return true
            }
            if !installed { task.cancel() }
        }
        return status
    }

    /// Stops polling and forgets the status, so that ``start()`` probes again.
    package func stop() {
        let task = state.withLock { state in
            defer { state.polling = nil; state.status = nil }
            return state.polling
        }
        task?.cancel()
    }

    /// Calls `body` with each new status until the observation is cancelled or released.
    package func observe(_ body: @escaping @Sendable (ReachabilityStatus) -> Void) -> Observation {
        changes.add(body)
    }

    /// The probe's answer for the host; a probe may be an app's code (``AppCode``).
    private func probeStatus() async -> ReachabilityStatus {
        await AppCode.run { await probe.status(ofHost: host) }
    }

    private func record(_ status: ReachabilityStatus) {
        let changed = state.withLock { state -> Bool in
            defer { state.status = status }
            return state.status != status
        }
        if changed { changes.notify(status) }
    }
}
