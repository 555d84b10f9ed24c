import Synchronization

/// Wakes waiting steps when something they may be waiting for happened, without polling.
///
/// Each signal bumps a generation; a waiter waits for the generation to move past the one it saw
/// before its last attempt, so a change between the attempt and the wait is never missed.
final class ChangeSignal: Sendable {
    private enum Waiter {
        case pending
        case waiting(UnsafeContinuation<Void, Never>, until: (@Sendable () -> Bool)?)
        case cancelled
    }

    private struct State {
        var generation: UInt64 = 0
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
    }

    private let state = Mutex(State())

    /// The current generation; read it before an attempt, pass it to ``wait(after:until:timeout:timer:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// How many waits are registered and sleeping (for tests: a signal then finds them).
    var sleepingCount: Int {
        state.withLock { state in
            state.waiters.values.count { if case .waiting = $0 { true } else { false } }
        }
    }

    /// Records a change and wakes every waiter, but one whose condition (``wait(after:until:timeout:timer:)``)
    /// does not hold yet: it sleeps on to a change after which it holds, or to its timeout.
    func signal() {
        let wake = state.withLock { state -> Wake in
            state.generation &+= 1
            // Nobody waiting, or the one paused step: no list made (a signal comes with every request's
            // end, every queue change, every journal entry).
            if state.waiters.count <= 1 {
                guard let (id, waiter) = state.waiters.first, case .waiting(let continuation, let until) = waiter
                else { return .nobody }
                if let until { return .gated(id, until) }
                state.waiters[id] = nil
                return .one(continuation)
            }
            var woken: [UnsafeContinuation<Void, Never>] = []
            var gated: [(id: Int, until: @Sendable () -> Bool)] = []
            for (id, waiter) in state.waiters {
                guard case .waiting(let continuation, let until) = waiter else { continue }
                if let until {
                    gated.append((id, until))
                } else {
                    woken.append(continuation)
                    state.waiters[id] = nil
                }
            }
            return .many(woken, gated)
        }
        // A condition is read outside the lock: it reads the app's state, under its own locks.
        switch wake {
        case .nobody:
            break
        case .one(let continuation):
            continuation.resume()
        case .gated(let id, let until):
            if until() { end(id) }
        case .many(let woken, let gated):
            for continuation in woken { continuation.resume() }
            for waiter in gated where waiter.until() { end(waiter.id) }
        }
    }

    /// Whom a signal wakes: the waiters it resumes, and those whose condition it reads.
    private enum Wake {
        case nobody
        case one(UnsafeContinuation<Void, Never>)
        case gated(Int, @Sendable () -> Bool)
        case many([UnsafeContinuation<Void, Never>], [(id: Int, until: @Sendable () -> Bool)])
    }

    /// Returns once the generation differs from `generation` — with `until`, once `until` holds instead,
    /// read as the wait begins and at each change —, once `timeout` has passed on `timer`'s clock, or when
    /// the task is cancelled. `until` is what the waiting step said its answer waits for
    /// (``ScenarioContext/retry(when:)``): a change that leaves it false does not wake the step only to
    /// wait again. It must hold once a change after which it holds is signalled, and read only state under
    /// locks no signaller holds while signalling.
    func wait(
        after generation: UInt64,
        until: (@Sendable () -> Bool)? = nil,
        timeout: Duration,
        timer: DeadlineTimer
    ) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.waiters[state.nextID] = .pending
            return state.nextID
        }
        let token = timer.schedule(after: timeout) { [self] in self.end(id) }
        await wait(id: id, after: generation, until: until)
        timer.cancel(token)
    }

    /// Ends one wait early (its timeout), as a change would.
    private func end(_ id: Int) {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            switch state.waiters[id] {
            case .waiting(let continuation, _):
                state.waiters[id] = nil
                return continuation
            case .pending:
                state.waiters[id] = .cancelled
                return nil
            case .cancelled, nil:
                return nil
            }
        }
        continuation?.resume()
    }

    private func wait(id: Int, after generation: UInt64, until: (@Sendable () -> Bool)?) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if (state.generation != generation && until == nil) || Task.isCancelled {
                        state.waiters[id] = nil
                        return true
                    }
                    if case .cancelled = state.waiters[id] {
                        state.waiters[id] = nil
                        return true
                    }
                    state.waiters[id] = .waiting(continuation, until: until)
                    return false
                }
                if resumeNow {
                    continuation.resume()
                } else if let until, until() {
                    // Read once the wait is registered: a change that made it hold before then is not missed
                    // (its signal may have come before this waiter was there to read it).
                    end(id)
                }
            }
        } onCancel: {
            end(id)
        }
    }
}
