package import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SharedValues
import Synchronization

/// The live transport: HTTP/1.1 written straight on SwiftNIO channels for `http://` URLs, with
/// kept-alive connections reused across requests and scenarios. It does what an object manager
/// talking to a stub server needs — one exchange per connection at a time, `Content-Length` or
/// chunked bodies, `Connection: close`, a deadline per request, cancellation — and hands any other
/// scheme (`https://`) to an `AsyncHTTPTransport` it makes on first use.
///
/// It exists for speed: a loopback request costs about half of what it costs through
/// AsyncHTTPClient's pool, state machines and async body streaming (DECISIONS.md 31).
package final class NIOHTTPTransport: HTTPTransport {
    private let group: any EventLoopGroup
    private let connectTimeout: Duration
    private let trustedCertificates: String?
    private let pool = Mutex(Pool())
    private static let exchangeNumbers = Atomic<UInt64>(0)
    /// For schemes other than http, made on first use.
    private let fallback = Mutex<AsyncHTTPTransport?>(nil)

    /// Idle connections by origin (the most recently used is taken first) and every open one.
    private struct Pool {
        var idle: [Origin: [Connection]] = [:]
        var open: [ObjectIdentifier: any Channel] = [:]
        var isShutDown = false
    }

    private struct Origin: Hashable {
        var host: String
        var port: Int
    }

    private struct Connection: Sendable {
        var channel: any Channel
        var exchange: NIOLoopBound<HTTP1Exchange>
        /// The `Host` field of its requests.
        var host: String
    }

    /// A transport on NIO's shared event loops; `connectTimeout` bounds connection set-up. For https,
    /// `trustedCertificates` names a PEM file to verify servers against instead of the system's CA bundle.
    package init(connectTimeout: Duration = .seconds(5), trustedCertificates: String? = nil) {
        self.group = MultiThreadedEventLoopGroup.singleton
        self.connectTimeout = connectTimeout
        self.trustedCertificates = trustedCertificates
    }

    deinit {
        // Never block: the last reference may go on an event loop.
        for channel in pool.withLock({ $0.open.values }) { channel.close(promise: nil) }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let url = request.url
        guard url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            let fallback = self.fallback.withLock { fallback in
                if let fallback { return fallback }
                let created = AsyncHTTPTransport(
                    connectTimeout: connectTimeout,
                    trustedCertificates: trustedCertificates
                )
                fallback = created
                return created
            }
            return try await fallback.send(request)
        }
        if Task.isCancelled { throw ObjectManagerError.cancelled(url: url) }
        // Refused here, saying which field and why: the one check of the fields (NIO's, which would only say
        // a token was bad, is not added to the connection).
        for header in request.headers {
            if let reason = header.unsendableReason {
                throw ObjectManagerError.connectionFailed(url: url, reason: "The request cannot be sent: \(reason).")
            }
        }
        let origin = Origin(host: host, port: url.port ?? 80)
        let deadline = NIODeadline.now() + request.timeout.timeAmount
        let body = request.body.map { ByteBuffer(bytes: $0) }
        while true {
            let (connection, reused) = try await self.connection(to: origin, for: request, deadline: deadline)
            let head = Self.head(of: request, host: connection.host)
            let received: HTTP1Exchange.Received
            do {
                received = try await Self.exchange(head: head, body: body, deadline: deadline, on: connection)
            } catch HTTP1Exchange.Failure.closedWithoutResponse where reused && request.method.isIdempotent {
                // A kept-alive connection the server had closed (the keep-alive race): an idempotent
                // request may be sent again (RFC 9110 9.2.2), on another connection.
                continue
            } catch let failure as HTTP1Exchange.Failure {
                throw failure.error(for: request)
            } catch let error as IOError {
                throw ObjectManagerError.connectionFailed(url: url, reason: AsyncHTTPTransport.describe(error))
            } catch {
                throw ObjectManagerError.connectionFailed(url: url, reason: "\(error)")
            }
            if received.keepAlive {
                release(connection, to: origin)
            } else {
                connection.channel.close(promise: nil)
            }
            return HTTPResponse(
                status: Int(received.head.status.code),
                headers: received.head.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                body: received.body?.readableData ?? Data(),
                url: url
            )
        }
    }

    /// Sends a `GET` to `url` on a transport of its own, then closes it; the status answered, `nil` for
    /// none. A process's first exchange pays for the first use of the client's HTTP machinery — its
    /// channel, its handlers, the runtime's first lookups of their types, about 10 M instructions — and,
    /// against a stub server, of the server's; a worker sends this to a server of its own while its first
    /// scenario is on the way (`StubServer.startedForWarmUp()`), so that the scenario does not pay for it.
    /// `timeout` bounds it: the most a worker waits, where an exchange takes a few milliseconds.
    @discardableResult
    package static func warmUp(_ url: URL, timeout: Duration = .seconds(2)) async -> Int? {
        let transport = NIOHTTPTransport()
        let status = try? await transport.send(HTTPRequest(method: .get, url: url, timeout: timeout)).status
        await transport.shutdown()
        return status
    }

    /// Closes every connection; later requests fail.
    package func shutdown() async {
        await fallback.withLock { $0 }?.shutdown()
        let channels = pool.withLock { pool in
            pool.isShutDown = true
            pool.idle = [:]
            return Array(pool.open.values)
        }
        for channel in channels { try? await channel.close() }
    }

    /// Sends one request on `connection` and waits for its response; cancelling the task ends the
    /// exchange and closes the connection.
    private static func exchange(
        head: HTTPRequestHead,
        body: ByteBuffer?,
        deadline: NIODeadline,
        on connection: Connection
    ) async throws -> HTTP1Exchange.Received {
        let loop = connection.channel.eventLoop
        let exchange = connection.exchange
        // Numbered after the connection was taken, so a connection sees its exchanges in increasing order.
        let number = Self.exchangeNumbers.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            // The handler resumes the continuation, on the loop: no promise and future between them.
            try await withUnsafeThrowingContinuation { continuation in
                let waiter: HTTP1Exchange.Waiter = { continuation.resume(with: $0) }
                if loop.inEventLoop {
                    exchange.value.start(number, head: head, body: body, deadline: deadline, waiter: waiter)
                } else {
                    loop.execute {
                        exchange.value.start(number, head: head, body: body, deadline: deadline, waiter: waiter)
                    }
                }
            }
        } onCancel: {
            loop.execute { exchange.value.cancel(number) }
        }
    }

    // MARK: Connections

    /// An idle kept-alive connection to `origin` (`reused`), or a new one made before `deadline`.
    private func connection(
        to origin: Origin,
        for request: HTTPRequest,
        deadline: NIODeadline
    ) async throws -> (Connection, reused: Bool) {
        let idle = try pool.withLock { pool -> Connection? in
            guard !pool.isShutDown else { throw ObjectManagerError.cancelled(url: request.url) }
            while let connection = pool.idle[origin]?.popLast() {
                if connection.channel.isActive { return connection }
            }
            return nil
        }
        if let idle { return (idle, true) }
        let connection: Connection?
        do {
            connection = try await connect(to: origin, timeout: min(connectTimeout.timeAmount, deadline - .now()))
        } catch ChannelError.connectTimeout {
            throw ObjectManagerError.timedOut(url: request.url, after: request.timeout)
        } catch let error as IOError {
            throw ObjectManagerError.connectionFailed(url: request.url, reason: AsyncHTTPTransport.describe(error))
        } catch let error as NIOConnectionError {
            let first = error.connectionErrors.first?.error
            let reason = (first as? IOError).map(AsyncHTTPTransport.describe) ?? first.map { "\($0)" } ?? "\(error)"
            throw ObjectManagerError.connectionFailed(url: request.url, reason: reason)
        } catch {
            throw ObjectManagerError.connectionFailed(url: request.url, reason: "\(error)")
        }
        // The transport was shut down while it connected.
        guard let connection else { throw ObjectManagerError.cancelled(url: request.url) }
        return (connection, false)
    }

    /// A new connection, or nil (closed again) when the transport was shut down meanwhile.
    private func connect(to origin: Origin, timeout: TimeAmount) async throws -> Connection? {
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Every field is checked before a request is written (``send(_:)``: `unsendableReason`),
                    // so NIO's own check of each outgoing head is not added again.
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(enableOutboundHeaderValidation: false)
                    try channel.pipeline.syncOperations.addHandler(HTTP1Exchange())
                }
            }
        // An IP literal connects directly; a name goes through NIO's resolver.
        let channel =
            if let address = try? SocketAddress(ipAddress: origin.host, port: origin.port) {
                try await bootstrap.connect(to: address).get()
            } else {
                try await bootstrap.connect(host: origin.host, port: origin.port).get()
            }
        let exchange = try await channel.eventLoop.submit {
            NIOLoopBound(
                try channel.pipeline.syncOperations.handler(type: HTTP1Exchange.self),
                eventLoop: channel.eventLoop
            )
        }.get()
        let id = ObjectIdentifier(channel)
        let admitted = pool.withLock { pool in
            if pool.isShutDown { return false }
            pool.open[id] = channel
            return true
        }
        guard admitted else {
            channel.close(promise: nil)
            return nil
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.pool.withLock { pool in
                pool.open[id] = nil
                for origin in pool.idle.keys { pool.idle[origin]?.removeAll { ObjectIdentifier($0.channel) == id } }
            }
        }
        let host = origin.port == 80 ? origin.host : "\(origin.host):\(origin.port)"
        return Connection(channel: channel, exchange: exchange, host: host)
    }

    private func release(_ connection: Connection, to origin: Origin) {
        let keep = pool.withLock { pool in
            guard !pool.isShutDown, connection.channel.isActive else { return false }
            pool.idle[origin, default: []].append(connection)
            return true
        }
        if !keep { connection.channel.close(promise: nil) }
    }

    /// The request's head: its headers as given (each one HTTP/1.1 can carry: checked by `send`), `host`
    /// as the `Host` field and the body's length as `Content-Length`.
    private static func head(of request: HTTPRequest, host: String) -> HTTPRequestHead {
        let length: String? =
            if let body = request.body {
                String(body.count)
            } else if request.method == .post || request.method == .put || request.method == .patch {
                "0"
            } else {
                nil
            }
        var fields: [(String, String)] = []
        fields.reserveCapacity(request.headers.count + 2)
        fields.append(("Host", host))
        for header in request.headers where !header.hasName("Host") {
            if length != nil, header.hasName("Content-Length") { continue }
            fields.append((header.name, header.value))
        }
        if let length { fields.append(("Content-Length", length)) }
        // As written in the URL: percent-encoded.
        let path = request.url.path(percentEncoded: true)
        var target = path.isEmpty ? "/" : path
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        return HTTPRequestHead(
            version: .http1_1,
            method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
            uri: target,
            headers: HTTPHeaders(fields)
        )
    }
}

/// One request/response exchange at a time on a connection: writes the request, collects the
/// response, and calls the exchange's waiter — with the response, or with why there is none.
///
/// A connection keeps one deadline timer for all its exchanges rather than one scheduled and
/// cancelled per request: it is armed for an exchange's deadline only when it would not fire by
/// then, and when it fires it ends the exchange whose deadline has passed, or arms itself again for
/// the running exchange's later one (DECISIONS 209).
final class HTTP1Exchange: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart
    /// Called once, on the connection's event loop, with the response or why there is none.
    typealias Waiter = @Sendable (Result<Received, any Error>) -> Void

    struct Received: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer?
        var keepAlive: Bool
    }

    enum Failure: Error {
        case timedOut
        case cancelled
        case closedWithoutResponse
        case busy
        case tooLarge

        func error(for request: HTTPRequest) -> ObjectManagerError {
            switch self {
            case .timedOut: .timedOut(url: request.url, after: request.timeout)
            case .cancelled: .cancelled(url: request.url)
            case .closedWithoutResponse:
                .connectionFailed(url: request.url, reason: "The server closed the connection without a response.")
            case .busy: .connectionFailed(url: request.url, reason: "The connection is busy with another request.")
            case .tooLarge:
                .connectionFailed(url: request.url, reason: HTTPResponse.tooLongReason)
            }
        }
    }

    private var context: ChannelHandlerContext?
    /// The running exchange's waiter and deadline.
    private var waiter: Waiter?
    private var deadline: NIODeadline?
    /// The connection's deadline timer and when it fires, while it is scheduled.
    private var timer: (fires: NIODeadline, task: Scheduled<Void>)?
    /// The number of the last exchange started, and of one cancelled before it could start.
    private var started: UInt64 = 0
    private var cancelledBeforeStart: UInt64?
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        timer?.task.cancel()
        timer = nil
    }

    func start(
        _ number: UInt64,
        head: HTTPRequestHead,
        body: ByteBuffer?,
        deadline: NIODeadline,
        waiter: @escaping Waiter
    ) {
        started = number
        if cancelledBeforeStart == number {
            cancelledBeforeStart = nil
            waiter(.failure(Failure.cancelled))
            context?.close(promise: nil)
            return
        }
        guard let context, context.channel.isActive else {
            waiter(.failure(Failure.closedWithoutResponse))
            return
        }
        guard self.waiter == nil else {
            waiter(.failure(Failure.busy))
            return
        }
        self.waiter = waiter
        self.deadline = deadline
        self.head = nil
        self.body = nil
        armTimer(for: deadline, on: context.eventLoop)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Makes the timer fire by `deadline`: kept when it fires by then already (it arms itself again for
    /// a later deadline when it fires), else scheduled anew.
    private func armTimer(for deadline: NIODeadline, on loop: any EventLoop) {
        if let timer {
            if timer.fires <= deadline { return }
            timer.task.cancel()
        }
        let task = loop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [self] in
            timerFired(on: loop)
        }
        timer = (deadline, task)
    }

    /// Ends the running exchange when its deadline has passed; arms the timer for it when not yet.
    private func timerFired(on loop: any EventLoop) {
        timer = nil
        guard waiter != nil, let deadline else { return }
        if deadline <= loop.now {
            fail(Failure.timedOut)
        } else {
            armTimer(for: deadline, on: loop)
        }
    }

    /// Cancels exchange `number`: the running one ends; one not started yet ends as it starts.
    func cancel(_ number: UInt64) {
        if number == started, waiter != nil {
            fail(Failure.cancelled)
        } else if number > started {
            cancelledBeforeStart = number
        }
    }

    /// Ends the exchange with `error` and closes the connection (its state is unknown now).
    func fail(_ error: any Error) {
        guard let waiter else { return }
        self.waiter = nil
        deadline = nil
        waiter(.failure(error))
        context?.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var part):
            guard waiter != nil else { return }
            guard (body?.readableBytes ?? 0) + part.readableBytes <= HTTPResponse.maximumBodyBytes else {
                body = nil
                fail(Failure.tooLarge)
                return
            }
            if body == nil {
                body = part
            } else {
                body?.writeBuffer(&part)
            }
        case .end:
            guard let waiter, let head else { return }
            self.waiter = nil
            deadline = nil
            let received = Received(head: head, body: body, keepAlive: head.isKeepAlive)
            self.head = nil
            self.body = nil
            waiter(.success(received))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(Failure.closedWithoutResponse)
        timer?.task.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}

extension Duration {
    /// This duration as NIO's `TimeAmount`.
    var timeAmount: TimeAmount {
        .nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}

extension SharedValues.HTTPMethod {
    /// Whether sending the request twice has the effect of sending it once (RFC 9110 9.2.2).
    var isIdempotent: Bool { self != .post && self != .patch }
}
