import Hummingbird
import NIOCore

/// What the stub responder needs besides the request: the connection, to fault it.
struct StubRequestContext: InitializableFromSource {
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        channel = source.channel
    }
}
