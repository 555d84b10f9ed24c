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

    /// What an exchange ended with, once it has.
    final class Outcome: Sendable {
        let result = Mutex<Result<HTTP1Exchange.Received, any Error>?>(nil)
    }

    func start(_ number: UInt64, deadline: TimeAmount = .seconds(10)) -> Outcome {
        let outcome = Outcome()
        exchange.start(
            number,
            head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/items"),
            body: nil,
            deadline: channel.embeddedEventLoop.now + deadline,
            waiter: { result in
                outcome.result.withLock { ended in
                    #expect(ended == nil, "an exchange ended twice")
                    ended = result
                }
            }
        )
        return outcome
    }

    func respond(_ body: String) throws {
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: body)))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
    }

    /// How the exchange ended, or `nil` while it runs.
    func outcome(_ exchange: Outcome) throws -> Result<String, HTTP1Exchange.Failure>? {
        channel.embeddedEventLoop.run()
        switch exchange.result.withLock({ $0 }) {
        case nil: return nil
        case .success(let received): return .success(String(buffer: received.body ?? ByteBuffer()))
        case .failure(let error): return .failure(try #require(error as? HTTP1Exchange.Failure))
        }
    }

    @Test func aResponseCompletesTheExchangeAndTheConnectionStaysOpen() throws {
        let running = start(1)
        let head = try channel.readOutbound(as: HTTPClientRequestPart.self)
        guard case .head(let written) = head else {
            Issue.record("expected the request head, got \(String(describing: head))"); return
        }
        #expect(written.uri == "/items")
        try respond("[1]")
        #expect(try outcome(running) == .success("[1]"))
        #expect(channel.isActive)
    }

    @Test func aCancellationThatArrivesBeforeTheStartEndsTheExchangeAsItStarts() throws {
        exchange.cancel(1)
        let running = start(1)
        #expect(try outcome(running) == .failure(.cancelled))
        #expect(try channel.readOutbound(as: HTTPClientRequestPart.self) == nil)  // nothing written
        #expect(!channel.isActive)
    }

    @Test func aCancellationDuringTheExchangeEndsItAndClosesTheConnection() throws {
        let running = start(1)
        exchange.cancel(1)
        #expect(try outcome(running) == .failure(.cancelled))
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
        let running = start(1)
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        _ = try channel.close().wait()
        #expect(try outcome(running) == .failure(.closedWithoutResponse))
    }

    // MARK: The connection's deadline timer

    @Test func anExchangeTimesOutAtItsDeadlineAndNotBefore() throws {
        let running = start(1, deadline: .seconds(1))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(try outcome(running) == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try outcome(running) == .failure(.timedOut))
        #expect(!channel.isActive)
    }

    @Test func aShorterDeadlineAfterALongerOneTimesOutAtItsOwn() throws {
        let first = start(1, deadline: .seconds(60))
        try respond("first")
        #expect(try outcome(first) == .success("first"))
        let second = start(2, deadline: .seconds(1))
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(try outcome(second) == .failure(.timedOut))
    }

    @Test func theTimerOfAnEarlierDeadlineLeavesALaterExchangeRunning() throws {
        let first = start(1, deadline: .seconds(1))
        try respond("first")
        #expect(try outcome(first) == .success("first"))
        let second = start(2, deadline: .seconds(10))
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))  // the first deadline's timer fires
        #expect(try outcome(second) == nil)
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(8))
        #expect(try outcome(second) == nil)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))  // armed again for its own deadline
        #expect(try outcome(second) == .failure(.timedOut))
    }

    @Test func noTimerEndsAnExchangeThatAnsweredInTime() throws {
        let running = start(1, deadline: .seconds(1))
        try respond("[1]")
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(try outcome(running) == .success("[1]"))  // a second ending would be recorded as an issue
        #expect(channel.isActive)
    }
}
