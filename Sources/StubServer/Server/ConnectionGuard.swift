import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import SharedValues

/// Holds one connection to the stub server's limits: a head not complete in time is answered 408, a head
/// over the limits 431 instead of Hummingbird's 400, and a connection the server has finished with is
/// closed once the client closes its end or the linger time is up, never left open. A connection whose
/// responses the client does not read (pipelined requests, never a read) stays unwritable; after the
/// idle timeout with no progress it is closed, as an idle one is — Hummingbird's idle timeout counts
/// only reads, and never fires while a response is under way.
///
/// Sits between Hummingbird's HTTP codec and its connection-state handler (one of
/// `HTTP1Channel.Configuration.additionalChannelHandlers`); adds a `ByteWatcher` at the front of the
/// pipeline, which tells it when bytes arrive and drops them once the server has finished. Counts itself
/// in `OpenConnections` from being added to being removed with the closed channel.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: StubServerLimits
    private let connections: OpenConnections
    private var state = ConnectionGuardState()
    private var headTimer: Scheduled<Void>?
    private var lingerTimer: Scheduled<Void>?
    private var writeStallTimer: Scheduled<Void>?
    private var counted = false

    init(limits: StubServerLimits, connections: OpenConnections) {
        self.limits = limits
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        connections.opened()
        counted = true
        try? context.pipeline.syncOperations.addHandler(ByteWatcher(owner: self), position: .first)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
        lingerTimer?.cancel()
        writeStallTimer?.cancel()
        if counted { connections.closed() }
        counted = false
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            perform(state.headReceived(), context: context)
        case .body:
            break
        case .end:
            state.requestEnded()
        }
        context.fireChannelRead(data)
    }

    /// The bytes of the read have gone through the decoder: a head still incomplete starts its timer.
    func channelReadComplete(context: ChannelHandlerContext) {
        perform(state.readEnded(), context: context)
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError {
            perform(state.parseFailed(headOverflow: error == .headerOverflow), context: context)
        }
        context.fireErrorCaught(error)
    }

    /// The client stopped reading (the channel is unwritable): closed after the idle timeout unless it
    /// reads again (writable again) before.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            writeStallTimer?.cancel()
            writeStallTimer = nil
        } else if writeStallTimer == nil {
            writeStallTimer = schedule(after: limits.idleTimeout, context: context) { guardian, context in
                guardian.writeStallTimer = nil
                if !context.channel.isWritable { context.close(mode: .all, promise: nil) }
            }
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            let closes = head.headerFields[.connection].map { HTTPHeader.same($0, "close") } ?? false
            switch state.responseHeadWritten(status: head.status.code, closes: closes) {
            case .pass:
                context.write(data, promise: promise)
            case .answerHeadTooLarge:
                head.status = .requestHeaderFieldsTooLarge
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            }
        case .body:
            context.write(data, promise: promise)
        case .end:
            switch state.responseEnds() {
            case .pass:
                context.write(data, promise: promise)
            case .passThenFinish:
                context.writeAndFlush(data, promise: promise)
                finish(context: context)
            }
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output {
            perform(state.outputClosing(), context: context)
        }
        context.close(mode: mode, promise: promise)
    }

    // MARK: From the byte watcher

    /// Bytes arrived at the front of the pipeline; returns whether to pass them on.
    fileprivate func bytesArrived() -> Bool {
        state.bytesArrived() == .forward
    }

    /// The client closed its end.
    fileprivate func inputClosed(context: ChannelHandlerContext) {
        perform(state.inputClosed(), context: context)
    }

    // MARK: Actions

    private func perform(_ action: ConnectionGuardState.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .startHeadTimer:
            guard headTimer == nil else { return }
            headTimer = schedule(after: limits.headTimeout, context: context) { guardian, context in
                guardian.headTimer = nil
                guardian.perform(guardian.state.headTimerFired(), context: context)
            }
        case .cancelHeadTimer:
            guard let timer = headTimer else { return }
            timer.cancel()
            headTimer = nil
        case .startLingerTimer:
            startLingerTimer(context: context)
        case .answerTimeoutThenFinish:
            // No response is under way (the head never arrived): write one below the HTTP codec.
            let answer = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
            let watcher = try? context.pipeline.syncOperations.context(handlerType: ByteWatcher.self)
            watcher?.writeAndFlush(NIOAny(ByteBuffer(string: answer)), promise: nil)
            finish(context: context)
        case .close:
            context.close(mode: .all, promise: nil)
        }
    }

    /// Closes the output once written and waits `lingerTimeout` for the client to close its end.
    private func finish(context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        startLingerTimer(context: context)
    }

    private func startLingerTimer(context: ChannelHandlerContext) {
        guard lingerTimer == nil else { return }
        lingerTimer = schedule(after: limits.lingerTimeout, context: context) { guardian, context in
            guardian.perform(guardian.state.lingerTimerFired(), context: context)
        }
    }

    private func schedule(
        after delay: Duration,
        context: ChannelHandlerContext,
        _ body: @escaping (ConnectionGuard, ChannelHandlerContext) -> Void
    ) -> Scheduled<Void> {
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
            body(self, context)
        }
    }
}

extension ConnectionGuard {
    /// The first handler of a guarded connection: tells the guard when bytes arrive and when the client
    /// closes its end, and drops the bytes once the server has finished with the connection.
    final class ByteWatcher: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private weak var owner: ConnectionGuard?
        private var ownerContext: ChannelHandlerContext?

        init(owner: ConnectionGuard) {
            self.owner = owner
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            ownerContext = nil
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if owner?.bytesArrived() ?? true {
                context.fireChannelRead(data)
            }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case ChannelEvent.inputClosed = event, let owner, let ownerContext = guardContext(context) {
                owner.inputClosed(context: ownerContext)
            }
            context.fireUserInboundEventTriggered(event)
        }

        private func guardContext(_ context: ChannelHandlerContext) -> ChannelHandlerContext? {
            if let ownerContext { return ownerContext }
            ownerContext = try? context.pipeline.syncOperations.context(handlerType: ConnectionGuard.self)
            return ownerContext
        }
    }
}
