import Foundation
import ObjectManager
import TestSupport
import Testing

@testable import StubServer

/// The stub server's memory held to bounds: the fixture cache holds each file once, however many
/// spellings reach it, and within its byte limit; a client that pipelines requests and never reads its
/// responses is closed after the idle timeout instead of holding the connection (and its buffers)
/// forever.
struct StubServerMemoryTests {
    /// Every spelling of `/big.json` with some of its letters percent-encoded, in upper and lower case hex.
    static func spellings(of name: String) -> [String] {
        let characters = Array(name.utf8)
        var paths: [String] = []
        for mask in 0..<(1 << characters.count) {
            for upper in [true, false] {
                var path = "/"
                for (index, byte) in characters.enumerated() {
                    if mask & (1 << index) != 0 {
                        path += "%" + String(format: upper ? "%02X" : "%02x", byte)
                    } else {
                        path += String(UnicodeScalar(byte))
                    }
                }
                paths.append(path)
            }
        }
        return paths
    }

    @Test func aFileReachedByManySpellingsIsHeldOnce() throws {
        let temp = try TemporaryFolder()
        let fixtures = try temp.folder("Fixtures")
        let size = 1_000_000
        try temp.write(String(repeating: "x", count: size), to: "Fixtures/big.json")
        let served = ServedFixtures(FixtureFolder(fixtures))
        let paths = Self.spellings(of: "big.json")
        #expect(paths.count == 512)
        for path in paths {
            #expect(served.contents(atRequestPath: path)?.data.count == size, "\(path)")
        }
        #expect(served.cachedCounts.contentBytes == size, "one copy of the file, not \(paths.count)")
        #expect(served.cachedCounts.spellings <= ServedFixtures.spellingLimit)
    }

    @Test func theContentsHeldStayWithinTheLimit() throws {
        let temp = try TemporaryFolder()
        let fixtures = try temp.folder("Fixtures")
        let size = 4 * 1024 * 1024
        let text = String(repeating: "y", count: size)
        let count = ServedFixtures.contentsBytesLimit / size + 4
        for index in 0..<count { try temp.write(text, to: "Fixtures/f\(index).json") }
        let served = ServedFixtures(FixtureFolder(fixtures))
        for index in 0..<count {
            #expect(served.contents(atRequestPath: "/f\(index).json")?.data.count == size)
        }
        #expect(served.cachedCounts.contentBytes <= ServedFixtures.contentsBytesLimit)
        // The newest is still served from the cache; an evicted one is read again.
        #expect(served.contents(atRequestPath: "/f0.json")?.data.count == size)
    }

    /// Two pipelined requests for a 4 MB fixture from a client that never reads: the responses fill the
    /// socket, the connection stays unwritable, and it is closed after the idle timeout (15 s here: with
    /// 300 ms, a loaded machine — a full parallel `swift test` on two cores — let the check that the server
    /// still answers time out too).
    @Test func aClientThatNeverReadsItsResponsesIsClosed() async throws {
        let running = try await StubServerTests.Running(
            files: ["big.json": String(repeating: "z", count: 4 * 1024 * 1024), "inside.json": "{}"],
            limits: StubServerLimitsTests.answeredIdle
        )
        let socket = try Self.connectWithoutReading(port: running.port)
        let request = "GET /big.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let twice = Array((request + request).utf8)
        #expect(send(socket, twice, twice.count, 0) == twice.count)
        #expect(await eventually { running.server.openConnections == 1 })
        let closed = await eventually(timeout: .seconds(60)) { running.server.openConnections == 0 }
        #expect(closed, "\(running.server.openConnections) connection(s) still open")
        close(socket)
        try await StubServerLimitsTests.expectStillAnswers(running)
        await running.finish()
    }

    /// A blocking loopback socket with a small receive buffer that the test never reads.
    static func connectWithoutReading(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var buffer: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &buffer, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        return descriptor
    }
}
