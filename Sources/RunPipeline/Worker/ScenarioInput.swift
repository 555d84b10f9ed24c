import Diagnostics
import Foundation
import ObjectManager
import Scenarios
import Synchronization

/// The scenarios the parent names on the channel, one a line (``line(index:id:line:)``): its position
/// in the run's plan (the worker's place on the board says it), the line it is written on, its file and
/// its name. Each is built as it arrives (``ScenarioBuilder``): the parent loaded and checked
/// every file, a worker builds only what it runs, as it is handed (the parent hands a lone worker up to a
/// thousand ahead). Reading never waits for the run: a worker that stopped reading its channel while
/// the parent waited to write more to it, and the parent that stopped reading the worker's events
/// meanwhile, would wait for each other for ever. A scenario its file no longer holds at that line
/// (changed after the parent loaded it) ends the input with ``problem``. Read on a thread of their own: a
/// blocking read must not hold the event loop every task runs on. At the end of its input the thread
/// waits for the channel to close: the parent has ended (whatever way, `kill -9` too), and so does this
/// process, at once.
package final class ScenarioInput: Sendable {
    let scenarios: AsyncStream<Scenario>
    private let mismatch = Mutex<String?>(nil)
    /// Each scenario built and not finished yet, with its board index.
    private let handed = Mutex<[ScenarioID: (index: Int, scenario: Scenario)]>([:])

    /// The line that hands a worker the scenario `id`, written at `line`, at position `index` of the plan.
    static func line(index: Int, id: ScenarioID, line: Int) -> String {
        String(
            decoding: JSONValue.array([.int(index), .int(line), .string(id.file), .string(id.name)]).encoded(),
            as: UTF8.self
        )
            + "\n"
    }

    /// What a line names: the index, the scenario and its line; `nil` for anything else.
    static func parse(_ line: Data) -> (index: Int, id: ScenarioID, line: Int)? {
        guard case .array(let fields)? = try? JSONValue(parsing: line), fields.count == 4,
            case .int(let index) = fields[0], case .int(let written) = fields[1],
            case .string(let file) = fields[2], case .string(let name) = fields[3]
        else { return nil }
        return (index, ScenarioID(file: file, name: name), written)
    }

    /// `after`: what was read from the channel past the run's own line.
    init(building builder: ScenarioBuilder, channel: Int32, after: Data = Data()) {
        let (stream, continuation) = AsyncStream.makeStream(of: Scenario.self)
        scenarios = stream
        let thread = Thread { [self] in
            var builder = builder
            var buffer = after
            var chunk = [UInt8](repeating: 0, count: 4096)
            // The lines already read come first; then what the channel brings.
            reading: while true {
                // Each line is a slice of what was read; the lines read are dropped once per read.
                var start = buffer.startIndex
                defer { buffer.removeSubrange(buffer.startIndex..<start) }
                while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[start..<newline]
                    start = newline + 1
                    guard let (index, id, written) = Self.parse(line) else {
                        self.mismatch.withLock { $0 = "The parent sent a line that names no scenario." }
                        break reading
                    }
                    guard let scenario = builder.scenario(id, line: written) else {
                        self.mismatch.withLock {
                            $0 =
                                "The scenario files changed while the run started: \(id.file) no longer has "
                                + "'\(id.name)' at line \(written)."
                        }
                        break reading
                    }
                    handed.withLock { $0[id] = (index, scenario) }
                    continuation.yield(scenario)
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

    /// The scenario `id`, handed over and now starting (each try of it), and its board index.
    func start(_ id: ScenarioID) -> (index: Int, scenario: Scenario)? {
        handed.withLock { $0[id] }
    }

    /// The scenario `id` has finished (or was skipped without starting): it is forgotten.
    func finish(_ id: ScenarioID) {
        handed.withLock { _ = $0.removeValue(forKey: id) }
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
