import Foundation
import Synchronization

/// The worker's end of its channel to the parent (a socket): given as standard input, it is moved to a
/// descriptor of its own that closes on exec, and standard input becomes `/dev/null` — app code that
/// reads standard input reads nothing, and none of what it reads or prints is the channel.
package enum WorkerChannel {
    /// Takes over the channel; returns its descriptor.
    static func takeOver() -> Int32 {
        let channel = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
        guard channel >= 0 else { return STDIN_FILENO }
        let empty = open("/dev/null", O_RDONLY)
        if empty >= 0 {
            dup2(empty, STDIN_FILENO)
            if empty != STDIN_FILENO { close(empty) }
        }
        return channel
    }

    /// Whether `channel` has something to read now (its run has come), without waiting.
    static func hasInput(_ channel: Int32) -> Bool {
        var entry = pollfd(fd: channel, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }
}

/// What app code prints on standard output in a worker: a pipe this process reads itself, so that each line goes to the log of the scenario that printed it
/// (``EventLineWriter`` drains it when a scenario finishes), or to the parent's output between
/// scenarios. At most ``limit`` bytes a scenario are kept; a line is cut at ``lineLimit`` bytes.
package final class OutputCapture: Sendable {
    /// The pipe's reading end (non-blocking); −1 when standard output could not be captured.
    let descriptor: Int32
    static let limit = 1 << 20
    static let lineLimit = 64 << 10

    init() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            descriptor = -1
            return
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        fflush(nil)
        dup2(ends[1], STDOUT_FILENO)
        close(ends[1])
        descriptor = ends[0]
    }

    /// Reads what is there without waiting.
    func readAvailable() -> Data {
        guard descriptor >= 0 else { return Data() }
        var data = Data()
        withUnsafeTemporaryAllocation(byteCount: 16 << 10, alignment: 1) { chunk in
            while true {
                let count = read(descriptor, chunk.baseAddress, chunk.count)
                if count <= 0 { break }
                data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            }
        }
        return data
    }

    /// Waits until there is something to read (or the pipe is gone: `false`).
    func waitForOutput() -> Bool {
        guard descriptor >= 0 else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, -1)
            if ready > 0 { return entry.revents & Int16(POLLIN) != 0 }
            if ready < 0, errno != EINTR { return false }
        }
    }
}
