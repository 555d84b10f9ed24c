import Synchronization

/// Wakes waiting steps when something they may be waiting for happened, without polling.
///
/// Each signal bumps a generation; a waiter waits for the generation to move past the one it saw
/// before its last attempt, so a change between the attempt and the wait is never missed.
final class ChangeSignal: Sendable {
    private enum Waiter {
        case pending
        case waiting(UnsafeContinuation<Void, Never>)
        case cancelled
    }

    private struct State {
        var generation: UInt64 = 0
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
    }

    private let state = Mutex(State())

    /// The current generation; read it before an attempt, pass it to ``wait(after:timeout:timer:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Records a change and wakes every waiter.
    func signal() {
        let woken = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
            state.generation &+= 1
            var woken: [UnsafeContinuation<Void, Never>] = []
            for (id, waiter) in state.waiters {
                if case .waiting(let continuation) = waiter {
                    woken.append(continuation)
                    state.waiters[id] = nil
                }
            }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once the generation differs from `generation`, once `timeout` has passed on `timer`'s
    /// clock, or when the task is cancelled.
    func wait(after generation: UInt64, timeout: Duration, timer: DeadlineTimer) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.waiters[state.nextID] = .pending
            return state.nextID
        }
        let token = timer.schedule(after: timeout) { [self] in self.end(id) }
        await wait(id: id, after: generation)
        timer.cancel(token)
    }

    /// Ends one wait early (its timeout), as a change would.
    private func end(_ id: Int) {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            switch state.waiters[id] {
            case .waiting(let continuation):
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

    private func wait(id: Int, after generation: UInt64) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.generation != generation || Task.isCancelled {
                        state.waiters[id] = nil
                        return true
                    }
                    if case .cancelled = state.waiters[id] {
                        state.waiters[id] = nil
                        return true
                    }
                    state.waiters[id] = .waiting(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            end(id)
        }
    }
}
