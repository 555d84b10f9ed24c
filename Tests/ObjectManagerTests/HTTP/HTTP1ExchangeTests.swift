import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing

@testable import ObjectManager

/// The exchange handler on an embedded channel: the order in which a request's start, its response
/// and its cancellation can reach the event loop.
@Suite struct HTTP1ExchangeTests {
    let channel = EmbeddedChannel()
    let exchange = HTTP1Exchange()

    init() throws {
        try channel.pipeline.syncOperations.addHandler(exchange)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
    }

    func start(_ number: UInt64) -> EventLoopFuture<HTTP1Exchange.Received> {
        let promise = channel.eventLoop.makePromise(of: HTTP1Exchange.Received.self)
        exchange.start(
            number,
            head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/items"),
            body: nil,
            deadline: .now() + .seconds(10),
            promise: promise
        )
        return promise.futureResult
    }

    func respond(_ body: String) throws {
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: body)))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
    }

    func outcome(_ future: EventLoopFuture<HTTP1Exchange.Received>) throws -> Result<String, HTTP1Exchange.Failure> {
        channel.embeddedEventLoop.run()
        // The embedded loop completes the future on this thread; the box only satisfies Sendable.
        let result = Mutex<Result<HTTP1Exchange.Received, any Error>?>(nil)
        future.whenComplete { completed in result.withLock { $0 = completed } }
        switch try #require(result.withLock { $0 }) {
        case .success(let received): return .success(String(buffer: received.body ?? ByteBuffer()))
        case .failure(let error): return .failure(try #require(error as? HTTP1Exchange.Failure))
        }
    }

    @Test func aResponseCompletesTheExchangeAndTheConnectionStaysOpen() throws {
        let future = start(1)
        let head = try channel.readOutbound(as: HTTPClientRequestPart.self)
        guard case .head(let written) = head else {
            Issue.record("expected the request head, got \(String(describing: head))"); return
        }
        #expect(written.uri == "/items")
        try respond("[1]")
        #expect(try outcome(future) == .success("[1]"))
        #expect(channel.isActive)
    }

    @Test func aCancellationThatArrivesBeforeTheStartEndsTheExchangeAsItStarts() throws {
        exchange.cancel(1)
        let future = start(1)
        #expect(try outcome(future) == .failure(.cancelled))
        #expect(try channel.readOutbound(as: HTTPClientRequestPart.self) == nil)  // nothing written
        #expect(!channel.isActive)
    }

    @Test func aCancellationDuringTheExchangeEndsItAndClosesTheConnection() throws {
        let future = start(1)
        exchange.cancel(1)
        #expect(try outcome(future) == .failure(.cancelled))
        #expect(!channel.isActive)
    }

    @Test func aLateCancellationOfAFinishedExchangeDoesNotTouchTheNextOne() throws {
        let first = start(1)
        try respond("first")
        #expect(try outcome(first) == .success("first"))
        exchange.cancel(1)  // arrives after its response
        let second = start(2)
        try respond("second")
        #expect(try outcome(second) == .success("second"))
        #expect(channel.isActive)
    }

    @Test func aSecondStartWhileOneIsRunningIsRefused() throws {
        let first = start(1)
        let second = start(2)
        #expect(try outcome(second) == .failure(.busy))
        try respond("first")
        #expect(try outcome(first) == .success("first"))
    }

    @Test func theConnectionClosingFirstIsAClosedWithoutResponse() throws {
        let future = start(1)
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        _ = try channel.close().wait()
        #expect(try outcome(future) == .failure(.closedWithoutResponse))
    }
}
