import Foundation
import NIOCore
import NIOPosix
import TestSupport

/// A loopback server that answers each connection from a script, byte for byte: for the transport
/// behaviour a well-behaved server never shows (closing without a response, closing a kept-alive
/// connection, chunked bodies, never answering).
final class ScriptedHTTPServer: Sendable {
    /// One accepted connection, as its script sees it.
    final class Connection: @unchecked Sendable {
        private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        private var buffered: [UInt8] = []

        init(inbound: NIOAsyncChannelInboundStream<ByteBuffer>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
            self.iterator = inbound.makeAsyncIterator()
            self.outbound = outbound
        }

        /// The next request (head and `Content-Length` body) as text, or nil once the client closed.
        func readRequest() async throws -> String? {
            while true {
                if let end = buffered.firstRange(of: Array("\r\n\r\n".utf8)) {
                    let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                    let length =
                        head.split(separator: "\r\n").compactMap { line -> Int? in
                            let parts = line.split(separator: ":", maxSplits: 1)
                            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                            return Int(parts[1].trimmingCharacters(in: .whitespaces))
                        }.first ?? 0
                    if buffered.count - end.upperBound >= length {
                        let request = String(decoding: buffered[..<(end.upperBound + length)], as: UTF8.self)
                        buffered.removeFirst(end.upperBound + length)
                        return request
                    }
                }
                guard let chunk = try await iterator.next() else { return nil }
                buffered += chunk.readableBytesView
            }
        }

        func write(_ text: String) async throws {
            try await outbound.write(ByteBuffer(string: text))
        }
    }

    typealias Script = @Sendable (Connection) async throws -> Void

    let port: Int
    private let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let accepted = Counter()
    private let task: Task<Void, Never>

    /// How many connections the server accepted so far.
    var connectionCount: Int { accepted.value }

    /// Listens on 127.0.0.1 (a free port) and runs `script` for every connection; the connection
    /// closes when the script returns.
    init(script: @escaping Script) async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                }
            }
        self.channel = channel
        self.port = channel.channel.localAddress?.port ?? 0
        let accepted = self.accepted
        self.task = Task {
            try? await channel.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await child in inbound {
                        accepted.increment()
                        group.addTask {
                            try? await child.executeThenClose { inbound, outbound in
                                try await script(Connection(inbound: inbound, outbound: outbound))
                            }
                        }
                    }
                }
            }
        }
    }

    var url: URL { URL(literal: "http://127.0.0.1:\(port)") }

    func stop() async {
        try? await channel.channel.close()
        task.cancel()
        await task.value
    }

    /// A complete response with a `Content-Length` body.
    static func response(_ status: String = "200 OK", body: String, headers: [String] = []) -> String {
        let fields = (["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] + headers)
            .map { $0 + "\r\n" }.joined()
        return "HTTP/1.1 \(status)\r\n\(fields)\r\n\(body)"
    }
}
