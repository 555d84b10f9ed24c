import Synchronization

/// Whether the run was interrupted, and what to call when it is: the signal may come before there is a
/// run to cancel (while loading), or during it.
package final class RunCancellation: Sendable {
    private let state = Mutex<(cancelled: Bool, onCancel: (@Sendable () -> Void)?)>((false, nil))

    package init() {}

    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    package func cancel() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            state.cancelled = true
            return state.onCancel
        }
        action?()
    }

    /// Calls `action` on cancellation — at once when the run was cancelled already.
    package func onCancel(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            state.onCancel = action
            return state.cancelled
        }
        if now { action() }
    }
}
