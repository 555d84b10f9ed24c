import NIOCore
import NIOPosix

/// Sends bytes exactly as written (no URL normalisation) and reads until the server closes.
enum RawHTTPClient {
    struct Reply {
        /// Every byte received before the connection ended.
        var bytes: [UInt8]
        /// Why reading stopped, when it was not a clean end of stream.
        var error: (any Error)?

        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// The status code of the first line, e.g. 404.
        var status: Int? {
            let parts = text.split(separator: " ", maxSplits: 2)
            return parts.count >= 2 ? Int(parts[1]) : nil
        }

        /// Whether the connection was reset (ECONNRESET) rather than closed.
        var wasReset: Bool {
            guard let error = error as? IOError else { return false }
            return error.errnoCode == ECONNRESET
        }
    }

    /// Connects to 127.0.0.1:`port`, writes `request`, and collects the reply.
    static func send(_ request: String, port: Int) async throws -> Reply {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            var reply = Reply(bytes: [], error: nil)
            do {
                for try await buffer in inbound {
                    reply.bytes += buffer.readableBytesView
                }
            } catch {
                reply.error = error
            }
            return reply
        }
    }

    /// A GET of `target` exactly as given, asking the server to close afterwards.
    static func get(_ target: String, port: Int) async throws -> Reply {
        try await send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
    }
}
