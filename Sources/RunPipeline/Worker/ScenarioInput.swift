import Diagnostics
import Foundation
import Scenarios
import Synchronization

/// The scenarios the parent names on the channel: its count and fingerprint of the scenarios it
/// loaded first (`#N F`, which must be this worker's too, as the indexes are into the same list: a
/// scenario renamed between the two loads keeps the count), then one index per line. Read on a thread
/// of their own: a blocking read must not hold the event loop every task runs on. At the end of its
/// input the thread waits for the channel to close: the parent has ended (whatever way, `kill -9`
/// too), and so does this process, at once.
package final class ScenarioInput: Sendable {
    let scenarios: AsyncStream<Scenario>
    private let mismatch = Mutex<String?>(nil)

    /// `#N F\n`: how many scenarios were loaded, and the FNV-1a hash of their files and names in order.
    static func header(of loaded: [ScenarioID]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in loaded {
            for byte in id.file.utf8 + [0] + id.name.utf8 + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return "#\(loaded.count) \(String(hash, radix: 16))\n"
    }

    /// `after`: what was read from the channel past the run's own line.
    init(_ loaded: [Scenario], channel: Int32, after: Data = Data()) {
        let (stream, continuation) = AsyncStream.makeStream(of: Scenario.self)
        scenarios = stream
        let header = Self.header(of: loaded.map(\.id)).dropLast()
        let thread = Thread { [self] in
            var buffer = after
            var chunk = [UInt8](repeating: 0, count: 4096)
            // The lines already read come first; then what the channel brings.
            reading: while true {
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    if line.hasPrefix("#") {
                        guard line == header else {
                            let count = line.dropFirst().split(separator: " ").first ?? ""
                            self.mismatch.withLock {
                                $0 =
                                    count == String(loaded.count)
                                    ? "The scenario files changed while the run started (a scenario was renamed or moved)."
                                    : "The scenario files changed while the run started (\(count) scenarios, now \(loaded.count))."
                            }
                            break reading
                        }
                    } else if let index = Int(line), loaded.indices.contains(index) {
                        continuation.yield(loaded[index])
                    }
                }
                let count = chunk.withUnsafeMutableBytes { read(channel, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                buffer.append(contentsOf: chunk[0..<count])
            }
            continuation.finish()
            Self.exitWhenTheParentEnds(channel)
        }
        thread.start()
    }

    /// Why the input was refused, if it was.
    var problem: String? { mismatch.withLock { $0 } }

    /// Waits for the channel to hang up — the parent's every descriptor of it closed, which happens
    /// only when the parent has ended (it keeps reading until this process ends) — then exits.
    private static func exitWhenTheParentEnds(_ channel: Int32) {
        var entry = pollfd(fd: channel, events: 0, revents: 0)
        while true {
            let ready = poll(&entry, 1, -1)
            if ready > 0, entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { _exit(3) }
            if ready < 0, errno != EINTR { return }
        }
    }
}
