import Synchronization

/// A clock that only moves when told to, so that tests of waits and timeouts never sleep.
///
/// ```swift
/// let clock = TestClock()
/// async let done: Void = clock.sleep(for: .seconds(1))
/// await clock.waitForSleepers()
/// clock.advance(by: .seconds(1))   // the sleeper resumes
/// ```
package final class TestClock: Clock, Sendable {
    /// A point on the test clock: the time advanced since it was made.
    package struct Instant: InstantProtocol, Hashable, Sendable {
        package var offset: Duration

        package init(offset: Duration) {
            self.offset = offset
        }

        package func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        package func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        package static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private enum Sleeper {
        case pending(deadline: Instant)
        case sleeping(deadline: Instant, CheckedContinuation<Void, any Error>)
        case cancelled
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var observers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        var sleepingCount: Int {
            sleepers.values.count { if case .sleeping = $0 { return true } else { return false } }
        }

        /// Observers whose count is reached, removed from the list.
        mutating func satisfiedObservers() -> [CheckedContinuation<Void, Never>] {
            let count = sleepingCount
            let ready = observers.filter { $0.count <= count }.map(\.continuation)
            observers.removeAll { $0.count <= count }
            return ready
        }
    }

    private let state = Mutex(State())

    package init() {}

    package var now: Instant { state.withLock { $0.now } }

    package var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock.
    package var sleeperCount: Int { state.withLock { $0.sleepingCount } }

    /// Whether a task sleeps (or is about to) until `instant` or earlier: what ``advance(to:)`` to
    /// `instant` will wake. A test that moves the clock past a deadline waits for this, not for any
    /// sleeper: a timer sleeping until a later deadline (a scenario's) would let it move the clock before
    /// the one it means to wake is armed, and that one would then never be woken.
    package func hasSleeper(dueBy instant: Instant) -> Bool {
        state.withLock { state in
            state.sleepers.values.contains { sleeper in
                switch sleeper {
                case .pending(let deadline), .sleeping(let deadline, _): deadline <= instant
                case .cancelled: false
                }
            }
        }
    }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.sleepers[state.nextID] = .pending(deadline: deadline)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Action { case resume, cancel, wait([CheckedContinuation<Void, Never>]) }
                let action = state.withLock { state -> Action in
                    if case .cancelled = state.sleepers[id] {
                        state.sleepers[id] = nil
                        return .cancel
                    }
                    if deadline <= state.now {
                        state.sleepers[id] = nil
                        return .resume
                    }
                    state.sleepers[id] = .sleeping(deadline: deadline, continuation)
                    return .wait(state.satisfiedObservers())
                }
                switch action {
                case .resume: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wait(let observers): for observer in observers { observer.resume() }
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                switch state.sleepers[id] {
                case .sleeping(_, let continuation):
                    state.sleepers[id] = nil
                    return continuation
                case .pending:
                    state.sleepers[id] = .cancelled
                    return nil
                case .cancelled, nil:
                    return nil
                }
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward, resuming every sleeper whose deadline has come.
    package func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards), resuming every sleeper whose deadline has come.
    package func advance(to instant: Instant) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            if instant > state.now { state.now = instant }
            var due: [CheckedContinuation<Void, any Error>] = []
            for (id, sleeper) in state.sleepers {
                if case .sleeping(let deadline, let continuation) = sleeper, deadline <= state.now {
                    due.append(continuation)
                    state.sleepers[id] = nil
                }
            }
            return due
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    package func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepingCount >= count { return true }
                state.observers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
