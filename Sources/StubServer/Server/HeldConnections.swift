import NIOCore
import Synchronization

/// Connections a `timeout` fault keeps open, so that stopping the server can close them.
final class HeldConnections: Sendable {
    private struct State {
        var closing = false
        var channels: [ObjectIdentifier: any Channel] = [:]
    }

    private let state = Mutex(State())

    /// Returns once the client closes the connection or `closeAll()` is called; closes at once when the
    /// server is already stopping.
    func hold(_ channel: any Channel) async {
        let id = ObjectIdentifier(channel)
        let closing = state.withLock { state in
            if !state.closing { state.channels[id] = channel }
            return state.closing
        }
        if closing {
            try? await channel.close()
            return
        }
        await withTaskCancellationHandler {
            try? await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        state.withLock { _ = $0.channels.removeValue(forKey: id) }
    }

    /// Closes every held connection and every one held from now on.
    func closeAll() {
        let channels = state.withLock { state in
            state.closing = true
            return Array(state.channels.values)
        }
        for channel in channels {
            channel.close(promise: nil)
        }
    }
}
