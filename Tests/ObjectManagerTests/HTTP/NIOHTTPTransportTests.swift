import Foundation
import Glibc
import ObjectManager
import TestSupport
import Testing

/// The live transport against scripted loopback servers: what goes on the wire, connection reuse,
/// and every way an exchange can end without a response.
@Suite struct NIOHTTPTransportTests {
    /// How long a request here may take: what is tested is what the transport answers, not how fast. The
    /// scripted server's tasks run on the cooperative pool, which the rest of a parallel `swift test` on
    /// two cores has held for over ten seconds (every request of this suite then timed out at the 10 s
    /// default); the tests of the timeout itself give their own.
    static let patience = Duration.seconds(120)

    /// Answers every request on a connection with `body` and keeps the connection open.
    static func answering(_ body: String, received: Recorder<String>? = nil) -> ScriptedHTTPServer.Script {
        { connection in
            while let request = try await connection.readRequest() {
                received?.append(request)
                try await connection.write(ScriptedHTTPServer.response(body: body))
            }
        }
    }

    /// After a request that was never sent: the next one on the same transport goes through, and it is the
    /// only request the server received.
    static func expectOnlyTheNextRequestArrives(
        on transport: NIOHTTPTransport,
        at server: ScriptedHTTPServer,
        received: Recorder<String>
    ) async throws {
        let response = try await transport.send(
            HTTPRequest(method: .get, url: server.url.appendingPathComponent("next"), timeout: patience)
        )
        #expect(response.status == 200)
        #expect(received.all.map { $0.components(separatedBy: " ")[1] } == ["/next"])
    }

    @Test func sendsTheRequestAsWrittenAndReturnsStatusHeadersAndBody() async throws {
        let received = Recorder<String>()
        let server = try await ScriptedHTTPServer { connection in
            guard let request = try await connection.readRequest() else { return }
            received.append(request)
            try await connection.write(
                ScriptedHTTPServer.response("201 Created", body: #"{"id":7}"#, headers: ["X-Trace: abc"])
            )
        }
        let transport = NIOHTTPTransport()
        let response = try await transport.send(
            HTTPRequest(
                method: .post,
                url: server.url.appendingPathComponent("reviews").appending(queryItems: [
                    URLQueryItem(name: "q", value: "a b")
                ]),
                headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                body: Data(#"{"title":"Great"}"#.utf8),
                timeout: Self.patience
            )
        )
        #expect(response.status == 201)
        #expect(response.headers[field: "x-trace"] == "abc")
        #expect(response.bodyText == #"{"id":7}"#)
        let request = try #require(received.all.first)
        let lines = request.components(separatedBy: "\r\n")
        #expect(lines.first == "POST /reviews?q=a%20b HTTP/1.1")
        #expect(lines.contains("Host: 127.0.0.1:\(server.port)"))
        #expect(lines.contains("Content-Type: application/json"))
        #expect(lines.contains("Content-Length: 17"))
        #expect(request.hasSuffix("\r\n\r\n" + #"{"title":"Great"}"#))
        await transport.shutdown()
        await server.stop()
    }

    @Test func thePathAndQueryGoOutPercentEncodedAsInTheURL() async throws {
        let received = Recorder<String>()
        let server = try await ScriptedHTTPServer(script: Self.answering("{}", received: received))
        let transport = NIOHTTPTransport()
        let url = try #require(
            URL(string: "\(server.url.absoluteString)/restaurants/caf%C3%A9/a%2Fb%20c?name=%C3%A9t%C3%A9&x=1%262")
        )
        _ = try await transport.send(HTTPRequest(method: .get, url: url, timeout: Self.patience))
        #expect(
            received.all.first?.hasPrefix(
                "GET /restaurants/caf%C3%A9/a%2Fb%20c?name=%C3%A9t%C3%A9&x=1%262 HTTP/1.1\r\n"
            ) == true
        )
        await transport.shutdown()
        await server.stop()
    }

    @Test func headerNamesCompareIgnoringTheCaseOfLettersOnly() {
        #expect(HTTPHeader(name: "Content-Type", value: "").hasName("content-TYPE"))
        #expect(!HTTPHeader(name: "Content-Type", value: "").hasName("Content-Typ"))
        #expect(!HTTPHeader(name: "X-@", value: "").hasName("X-`"))  // 0x40 and 0x60 differ by the case bit
        #expect(!HTTPHeader(name: "Ä", value: "").hasName("ä"))
        #expect([HTTPHeader(name: "ETag", value: "1")][field: "etag"] == "1")
        // The origin header the object manager adds, named in any case; a byte one case bit away from a
        // dash (a carriage return) is another name.
        #expect(RequestOrigin.isHeader(HTTPHeader(name: "X-Scenario-Run-Origin", value: "1.0")))
        #expect(!RequestOrigin.isHeader(HTTPHeader(name: "x\rscenario-run-origin", value: "1.0")))
        #expect(!RequestOrigin.isHeader(HTTPHeader(name: "x-scenario-run-origi", value: "1.0")))
    }

    @Test func aBodilessPostSaysItsLengthIsZero() async throws {
        let received = Recorder<String>()
        let server = try await ScriptedHTTPServer(script: Self.answering("{}", received: received))
        let transport = NIOHTTPTransport()
        _ = try await transport.send(
            HTTPRequest(method: .post, url: server.url.appendingPathComponent("touch"), timeout: Self.patience)
        )
        #expect(received.all.first?.contains("Content-Length: 0\r\n") == true)
        await transport.shutdown()
        await server.stop()
    }

    @Test func keptAliveConnectionsAreReusedAcrossRequests() async throws {
        let server = try await ScriptedHTTPServer(script: Self.answering("[]"))
        let transport = NIOHTTPTransport()
        for _ in 0..<5 {
            let response = try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("items"), timeout: Self.patience)
            )
            #expect(response.status == 200)
        }
        #expect(server.connectionCount == 1)
        await transport.shutdown()
        await server.stop()
    }

    @Test func concurrentRequestsEachGetTheirOwnResponse() async throws {
        // Each answer names the request it answers, and none is sent before all four requests have
        // arrived: a transport that queued them on one connection would time out here. (The bounds are
        // generous: under a full parallel `swift test` on two cores, four connections took over 3 s, and a
        // client timeout of 20 s was once reached on a fresh clone's run. Queued, the second request is
        // answered only after two of the server's 60 s waits, past its 120 s timeout.)
        let arrived = Recorder<String>()
        let server = try await ScriptedHTTPServer { connection in
            while let request = try await connection.readRequest() {
                let target = request.components(separatedBy: " ")[1]
                arrived.append(target)
                _ = await eventually(timeout: .seconds(60)) { arrived.all.count == 4 }
                try await connection.write(ScriptedHTTPServer.response(body: target))
            }
        }
        let transport = NIOHTTPTransport()
        let answers = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<4 {
                group.addTask {
                    let response = try await transport.send(
                        HTTPRequest(
                            method: .get,
                            url: server.url.appendingPathComponent("items/\(index)"),
                            timeout: Self.patience
                        )
                    )
                    return ("/items/\(index)", response.bodyText)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 4)
        for (asked, answered) in answers { #expect(asked == answered) }
        #expect(server.connectionCount == 4)
        await transport.shutdown()
        await server.stop()
    }

    @Test func aChunkedBodyIsAssembled() async throws {
        let server = try await ScriptedHTTPServer { connection in
            guard try await connection.readRequest() != nil else { return }
            try await connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            try await connection.write("5\r\n[1,2,\r\n")
            try await connection.write("2\r\n3]\r\n0\r\n\r\n")
        }
        let transport = NIOHTTPTransport()
        let response = try await transport.send(
            HTTPRequest(method: .get, url: server.url.appendingPathComponent("numbers"), timeout: Self.patience)
        )
        #expect(response.bodyText == "[1,2,3]")
        await transport.shutdown()
        await server.stop()
    }

    @Test func connectionCloseIsHonouredAndTheNextRequestConnectsAgain() async throws {
        let server = try await ScriptedHTTPServer { connection in
            guard try await connection.readRequest() != nil else { return }
            try await connection.write(ScriptedHTTPServer.response(body: "{}", headers: ["Connection: close"]))
        }
        let transport = NIOHTTPTransport()
        for _ in 0..<3 {
            let response = try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("once"), timeout: Self.patience)
            )
            #expect(response.status == 200)
        }
        #expect(server.connectionCount == 3)
        await transport.shutdown()
        await server.stop()
    }

    /// Answers the first request on each connection, then reads the next one and closes without
    /// answering: what a kept-alive connection the server dropped looks like to the next request.
    static let answersOncePerConnection: ScriptedHTTPServer.Script = { connection in
        guard try await connection.readRequest() != nil else { return }
        try await connection.write(ScriptedHTTPServer.response(body: "{}"))
        _ = try await connection.readRequest()
    }

    @Test func anIdempotentRequestOnADroppedKeptAliveConnectionIsSentAgainOnANewOne() async throws {
        let server = try await ScriptedHTTPServer(script: Self.answersOncePerConnection)
        let transport = NIOHTTPTransport()
        for method in [HTTPMethod.get, .put, .delete] {
            let response = try await transport.send(
                HTTPRequest(method: method, url: server.url.appendingPathComponent("short"), timeout: Self.patience)
            )
            #expect(response.status == 200)
        }
        // The first connection answered GET; PUT was retried on a second, DELETE on a third.
        #expect(server.connectionCount == 3)
        await transport.shutdown()
        await server.stop()
    }

    @Test func aPostOnADroppedKeptAliveConnectionIsNotSentTwice() async throws {
        let server = try await ScriptedHTTPServer(script: Self.answersOncePerConnection)
        let transport = NIOHTTPTransport()
        _ = try await transport.send(
            HTTPRequest(method: .get, url: server.url.appendingPathComponent("first"), timeout: Self.patience)
        )
        let error = try await #require(throws: ObjectManagerError.self) {
            try await transport.send(
                HTTPRequest(
                    method: .post,
                    url: server.url.appendingPathComponent("reviews"),
                    body: Data("{}".utf8),
                    timeout: Self.patience
                )
            )
        }
        #expect(
            error.description == "The request to /reviews failed: The server closed the connection without a response."
        )
        #expect(server.connectionCount == 1)
        await transport.shutdown()
        await server.stop()
    }

    @Test func aServerThatClosesWithoutAResponseIsAConnectionFailure() async throws {
        let server = try await ScriptedHTTPServer { connection in
            _ = try await connection.readRequest()
        }
        let transport = NIOHTTPTransport()
        let error = try await #require(throws: ObjectManagerError.self) {
            try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("gone"), timeout: Self.patience)
            )
        }
        #expect(
            error.description == "The request to /gone failed: The server closed the connection without a response."
        )
        await transport.shutdown()
        await server.stop()
    }

    /// A body over ``HTTPResponse/maximumBodyBytes`` is not read on: the request fails saying why (the
    /// transport would otherwise hold whatever a server sends).
    @Test func aBodyOverTheLimitFailsTheRequestSayingWhy() async throws {
        let server = try await ScriptedHTTPServer { connection in
            guard try await connection.readRequest() != nil else { return }
            try await connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "x", count: 1 << 20)
            for _ in 0..<65 { try await connection.write("100000\r\n" + chunk + "\r\n") }
            try await connection.write("0\r\n\r\n")
            // Open until the client closes it: a connection closed now may drop writes not yet sent.
            while try await connection.readRequest() != nil {}
        }
        let transport = NIOHTTPTransport()
        let error = try await #require(throws: ObjectManagerError.self) {
            try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("huge"), timeout: Self.patience)
            )
        }
        #expect(
            error.description == "The request to /huge failed: The response body is over 64 MiB, more than is read."
        )
        await transport.shutdown()
        await server.stop()
    }

    @Test(arguments: [
        // A name that is not ASCII (NIO's `HTTPHeaders.add` trapped on it).
        (HTTPHeader(name: "Résumé", value: "1"), #"the header name "Résumé" is not an HTTP token"#),
        // A value that would start another field.
        (
            HTTPHeader(name: "X-Note", value: "a\r\nX-Injected: 1"),
            "the value of header X-Note has a line break or another control character"
        ),
    ])
    func aHeaderHTTPCannotCarryFailsTheRequestSayingWhyAndNothingIsSent(header: HTTPHeader, reason: String)
        async throws
    {
        let received = Recorder<String>()
        let server = try await ScriptedHTTPServer(script: Self.answering("{}", received: received))
        let transport = NIOHTTPTransport()
        let error = try await #require(throws: ObjectManagerError.self) {
            try await transport.send(
                HTTPRequest(
                    method: .get,
                    url: server.url.appendingPathComponent("items"),
                    headers: [header],
                    timeout: Self.patience
                )
            )
        }
        #expect(error.description == "The request to /items failed: The request cannot be sent: \(reason).")
        try await Self.expectOnlyTheNextRequestArrives(on: transport, at: server, received: received)
        await transport.shutdown()
        await server.stop()
    }

    @Test func aRequestWithNoAnswerTimesOutAtItsDeadline() async throws {
        let server = try await ScriptedHTTPServer { connection in
            while try await connection.readRequest() != nil {}  // reads, never answers
        }
        let transport = NIOHTTPTransport()
        let error = try await #require(throws: ObjectManagerError.self) {
            try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("silent"), timeout: .milliseconds(200))
            )
        }
        guard case .timedOut(_, let after) = error else { Issue.record("expected a timeout, got \(error)"); return }
        #expect(after == .milliseconds(200))
        await transport.shutdown()
        await server.stop()
    }

    @Test func cancellingTheTaskEndsTheRequest() async throws {
        let server = try await ScriptedHTTPServer { connection in
            while try await connection.readRequest() != nil {}
        }
        let transport = NIOHTTPTransport()
        let request = Task {
            try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("slow"), timeout: .seconds(30))
            )
        }
        #expect(await eventually { server.connectionCount == 1 })
        request.cancel()
        let error = try await #require(throws: ObjectManagerError.self) { try await request.value }
        #expect(error.isCancellation)
        await transport.shutdown()
        await server.stop()
    }

    @Test func aRequestOfACancelledTaskIsNeverSent() async throws {
        let received = Recorder<String>()
        let server = try await ScriptedHTTPServer(script: Self.answering("{}", received: received))
        let transport = NIOHTTPTransport()
        let request = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("never"), timeout: Self.patience)
            )
        }
        let error = try await #require(throws: ObjectManagerError.self) { try await request.value }
        #expect(error.isCancellation)
        try await Self.expectOnlyTheNextRequestArrives(on: transport, at: server, received: received)
        await transport.shutdown()
        await server.stop()
    }

    @Test func nothingListeningIsARefusedConnection() async throws {
        // A bound socket that does not listen holds the port (so no other test can take it) and
        // refuses connections.
        let socket = try BoundSocket()
        defer { socket.close() }
        let url = try #require(URL(string: "http://127.0.0.1:\(socket.port)/nobody"))
        let transport = NIOHTTPTransport()
        let error = try await #require(throws: ObjectManagerError.self) {
            try await transport.send(HTTPRequest(method: .get, url: url, timeout: Self.patience))
        }
        #expect(error.description == "The request to /nobody failed: The connection was refused.")
        await transport.shutdown()
    }

    @Test func aHostNameIsResolved() async throws {
        let server = try await ScriptedHTTPServer(script: Self.answering(#"{"ok":true}"#))
        let transport = NIOHTTPTransport()
        let url = try #require(URL(string: "http://localhost:\(server.port)/named"))
        let response = try await transport.send(HTTPRequest(method: .get, url: url, timeout: Self.patience))
        #expect(response.bodyText == #"{"ok":true}"#)
        await transport.shutdown()
        await server.stop()
    }

    @Test func afterShutdownRequestsFailAndConnectionsAreClosed() async throws {
        let closed = Recorder<String>()
        let server = try await ScriptedHTTPServer { connection in
            while try await connection.readRequest() != nil {
                try await connection.write(ScriptedHTTPServer.response(body: "{}"))
            }
            closed.append("closed")  // the client closed its kept-alive connection
        }
        let transport = NIOHTTPTransport()
        _ = try await transport.send(
            HTTPRequest(method: .get, url: server.url.appendingPathComponent("a"), timeout: Self.patience)
        )
        await transport.shutdown()
        #expect(await eventually { closed.all == ["closed"] })
        let error = try await #require(throws: ObjectManagerError.self) {
            try await transport.send(
                HTTPRequest(method: .get, url: server.url.appendingPathComponent("b"), timeout: Self.patience)
            )
        }
        #expect(error.isCancellation)
        await server.stop()
    }
}

/// A TCP socket bound to a free port on 127.0.0.1 that never listens.
struct BoundSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                Glibc.bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }
}
