import Synchronization

/// Runs actions at deadlines on a clock from one sleeping task, so that a wait a change ends early
/// leaves no timer of its own behind.
///
/// A waiting step is usually woken by a change within a millisecond; its retry deadline is then
/// cancelled. With a sleep per wait, every such wait would still arm (and later fire) a timer on the
/// clock. Here one driver task sleeps until the earliest deadline, runs what is due, and sleeps again
/// until the next one; cancelled deadlines cost nothing. Deadlines usually arrive in increasing order
/// (now + the retry interval), so the driver rarely has to be restarted for an earlier one.
///
/// ```swift
/// let timer = DeadlineTimer(clock: ContinuousClock())
/// let token = timer.schedule(after: .milliseconds(50)) { print("due") }
/// timer.cancel(token)     // before it is due: the action never runs
/// timer.shutDown()        // ends the driver; pending actions never run
/// ```
final class DeadlineTimer: Sendable {
    private struct Entry {
        var deadline: Duration
        var action: @Sendable () -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        /// The deadline the current driver sleeps until, and its epoch; `nil` when no driver runs.
        var armed: (deadline: Duration, epoch: Int)?
        var epoch = 0
        var driver: Task<Void, Never>?
        var isShutDown = false
    }

    private let clock: any Clock<Duration>
    private let stopwatch: Stopwatch
    private let state = Mutex(State())

    init(clock: any Clock<Duration>) {
        self.clock = clock
        self.stopwatch = Stopwatch(clock)
    }

    /// Runs `action` once `delay` has passed on the clock, unless the token is cancelled first.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Int {
        let deadline = stopwatch.elapsed + delay
        let (id, start, replaced) = state.withLock { state -> (Int, Int?, Task<Void, Never>?) in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, action: action)
            guard !state.isShutDown else { return (state.nextID, nil, nil) }
            if let armed = state.armed, armed.deadline <= deadline { return (state.nextID, nil, nil) }
            // No driver, or one sleeping past this deadline: a new driver takes over.
            state.epoch += 1
            state.armed = (deadline, state.epoch)
            defer { state.driver = nil }
            return (state.nextID, state.epoch, state.driver)
        }
        replaced?.cancel()
        if let start { startDriver(epoch: start, sleepingUntil: deadline) }
        return id
    }

    /// Forgets a scheduled action; does nothing when it already ran.
    func cancel(_ token: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: token) }
    }

    /// Stops the driver; nothing scheduled runs any more.
    func shutDown() {
        let driver = state.withLock { state in
            defer {
                state.isShutDown = true
                state.entries = [:]
                state.armed = nil
                state.driver = nil
            }
            return state.driver
        }
        driver?.cancel()
    }

    private func startDriver(epoch: Int, sleepingUntil first: Duration) {
        let task = Task { [self] in
            var until = first
            while true {
                try? await clock.sleep(for: until - stopwatch.elapsed)
                if Task.isCancelled { return }
                let now = stopwatch.elapsed
                let (due, next) = state.withLock { state -> ([@Sendable () -> Void], Duration?) in
                    guard state.armed?.epoch == epoch else { return ([], nil) }
                    var due: [(Duration, @Sendable () -> Void)] = []
                    for (id, entry) in state.entries where entry.deadline <= now {
                        due.append((entry.deadline, entry.action))
                        state.entries[id] = nil
                    }
                    let next = state.entries.values.map(\.deadline).min()
                    if let next {
                        state.armed = (next, epoch)
                    } else {
                        state.armed = nil
                        state.driver = nil
                    }
                    return (due.sorted { $0.0 < $1.0 }.map(\.1), next)
                }
                for action in due { action() }
                guard let next else { return }
                until = next
            }
        }
        let stale = state.withLock { state -> Bool in
            guard state.armed?.epoch == epoch else { return true }
            state.driver = task
            return false
        }
        if stale { task.cancel() }
    }
}
