import Foundation
import RunPipeline
import Testing

/// `Terminal.write` hands bytes straight to `write(2)`: every byte arrives, in order, through short
/// writes and a descriptor that would block; a reader that went away is a `false`, never a trap.
struct TerminalWriteTests {
    /// A pipe whose read end is drained on a thread of its own into the returned box.
    final class Drain: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var bytes: [UInt8] = []
    }

    func drained(_ read: Int32) -> Drain {
        let drain = Drain()
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)  // smaller than a write: the writer is cut short
            while true {
                let count = buffer.withUnsafeMutableBytes { Foundation.read(read, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                drain.bytes += buffer[..<count]
            }
            close(read)
            drain.done.signal()
        }
        return drain
    }

    /// A megabyte of every byte value: many times a pipe's capacity.
    let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    @Test(arguments: [false, true])
    func everyByteArrivesInOrder(nonBlocking: Bool) throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        if nonBlocking { _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) }
        let drain = drained(ends[0])
        let handle = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        // Results taken first: a failed expectation shows its operands, and a megabyte is no message.
        let wrote = [
            Terminal.write(payload, to: handle), Terminal.write(Data("Ω tail\n".utf8), to: handle),
            Terminal.write("and a line ✓\n", to: handle),
        ]
        try handle.close()
        #expect(wrote == [true, true, true])
        #expect(drain.done.wait(timeout: .now() + 30) == .success, "the reader saw the end")
        let expected = payload + Array("Ω tail\nand a line ✓\n".utf8)
        let firstDifference = zip(drain.bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(drain.bytes.count == expected.count)
        #expect(firstDifference == nil)
    }

    @Test func aReaderThatWentAwayIsFalseNotATrap() throws {
        signal(SIGPIPE, SIG_IGN)  // as `scenario-run` does before it writes
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        let handle = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let wrote = [Terminal.write("nobody reads this\n", to: handle), Terminal.write(payload, to: handle)]
        #expect(wrote == [false, false])
    }

    @Test func nothingToWriteIsDone() {
        #expect(Terminal.write(UnsafeRawBufferPointer(start: nil, count: 0), to: -1))
    }
}
