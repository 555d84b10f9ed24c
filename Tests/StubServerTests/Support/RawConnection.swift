import NIOCore
import NIOPosix

/// One loopback connection that sends bytes exactly as given, whenever told, and notices when the server
/// closes its end — without closing its own, so a test can see whether the server lets go of it.
final class RawConnection: Sendable {
    /// Collects what the server sends until it ends the stream.
    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private let ended: EventLoopPromise<RawHTTPClient.Reply>
        private var reply = RawHTTPClient.Reply(bytes: [], error: nil)
        private var done = false

        init(ended: EventLoopPromise<RawHTTPClient.Reply>) {
            self.ended = ended
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            reply.bytes += unwrapInboundIn(data).readableBytesView
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case ChannelEvent.inputClosed = event { end() }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !done { reply.error = error }
            end()
        }

        func channelInactive(context: ChannelHandlerContext) {
            end()
            context.fireChannelInactive()
        }

        private func end() {
            guard !done else { return }
            done = true
            ended.succeed(reply)
        }
    }

    let channel: any Channel
    private let ended: EventLoopFuture<RawHTTPClient.Reply>

    private init(channel: any Channel, ended: EventLoopFuture<RawHTTPClient.Reply>) {
        self.channel = channel
        self.ended = ended
    }

    /// Connects to 127.0.0.1:`port`.
    static func open(port: Int) async throws -> RawConnection {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let ended = loop.makePromise(of: RawHTTPClient.Reply.self)
        let channel = try await ClientBootstrap(group: loop)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(ended: ended))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        return RawConnection(channel: channel, ended: ended.futureResult)
    }

    /// Sends `bytes` without waiting for them to be taken: a server that stops reading must not stall the test.
    func send(_ bytes: ByteBuffer) {
        channel.writeAndFlush(bytes, promise: nil)
    }

    /// Sends `text` as UTF-8.
    func send(_ text: String) {
        send(ByteBuffer(string: text))
    }

    /// Everything the server sent, once it has ended the stream (closed or reset); throws `TimedOut` when it
    /// has not within `timeout`.
    func reply(within timeout: Duration = .seconds(60)) async throws -> RawHTTPClient.Reply {
        let ended = self.ended
        return try await withThrowingTaskGroup(of: RawHTTPClient.Reply.self) { group in
            group.addTask { try await ended.get() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut(description: "The server did not end the connection within \(timeout).")
            }
            defer { group.cancelAll() }
            guard let reply = try await group.next() else { throw CancellationError() }
            return reply
        }
    }

    /// Closes this end.
    func close() async {
        try? await channel.close()
    }
}
