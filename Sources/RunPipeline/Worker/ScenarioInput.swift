import Diagnostics
import Foundation
import Glibc
import ObjectManager
import Scenarios
import Synchronization

/// The scenarios the parent names on the channel, one a line (``append(index:id:line:source:to:)``): its position in the
/// run's plan (the worker's place on the board says it), the line it is written on, its file and its name, and where
/// its item and its file's keys are written (``ItemSource``). Each is built shortly before it runs
/// (``ScenarioBuilder``): the parent loaded and checked every file, a worker builds only what it runs, and at most
/// ``builtAhead`` of them are built and not finished at a time (the parent hands a lone worker up to a thousand ahead).
/// Reading never waits for the run: a worker that stopped reading its channel while the parent waited to write more to
/// it, and the parent that stopped reading the worker's events meanwhile, would wait for each other for ever — the
/// lines read wait, small, for their turn to be built. A scenario its file no longer holds at that line (changed after
/// the parent loaded it) ends the input with ``problem``. Read and built on threads of their own: a blocking read, and
/// building, must not hold the event loop every task runs on. At the end of its input the reading thread waits for the
/// channel to close: the parent has ended (whatever way, `kill -9` too), and so does this process, at once.
package final class ScenarioInput: Sendable {
    /// How many scenarios are built and not finished at most: the one running, and the next ones ready
    /// to start the moment it ends.
    static let builtAhead = 16
    /// How few built and unfinished scenarios wake the building thread to build up to ``builtAhead``
    /// again: it is woken once every dozen scenarios, not once each (DECISIONS 187).
    static let buildAgainAt = 4

    let scenarios: AsyncStream<Scenario>
    private let mismatch = Mutex<String?>(nil)
    /// Each scenario built and not finished yet, with its board index.
    private let handed = Mutex<[ScenarioID: (index: Int, scenario: Scenario)]>([:])
    /// What is read and not built yet, and how many built are not finished: the reading thread adds, the
    /// building thread takes, ``finish(_:)`` makes room.
    private let queue = NSCondition()
    private nonisolated(unsafe) var waiting: [Handed] = []
    private nonisolated(unsafe) var readAll = false
    private nonisolated(unsafe) var unfinished = 0
    private nonisolated(unsafe) var readCount = 0
    private nonisolated(unsafe) var finishedCount = 0

    /// What one line hands a worker: the scenario's position in the plan, its identity, its line, and
    /// where its item and its file's keys are written (``ItemSource``) when the parent knows.
    struct Handed: Equatable {
        var index: Int
        var id: ScenarioID
        var line: Int
        var source: ItemSource?
    }

    /// The line that hands a worker the scenario `id`, written at `line`, at position `index` of the plan,
    /// its item and its file's keys at `source`, at the end of `bytes`: `[INDEX,LINE,"FILE","NAME",[ITEM],
    /// [[KEY],…]]`, each part `[START,END,LINE OFFSET]`, written straight (the parent writes one for every
    /// scenario of a run).
    static func append(index: Int, id: ScenarioID, line: Int, source: ItemSource?, to bytes: inout [UInt8]) {
        func part(_ part: ItemSource.Part) {
            bytes.append(UInt8(ascii: "["))
            TextBytes.appendDecimal(part.bytes.lowerBound, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            TextBytes.appendDecimal(part.bytes.upperBound, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            TextBytes.appendDecimal(part.lineOffset, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "["))
        TextBytes.appendDecimal(index, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        TextBytes.appendDecimal(line, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONValue.appendString(id.file, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONValue.appendString(id.name, to: &bytes)
        if let source {
            bytes.append(UInt8(ascii: ","))
            part(source.item)
            bytes.append(contentsOf: ",[".utf8)
            for (index, key) in source.keys.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                part(key)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(contentsOf: "]\n".utf8)
    }

    /// What a line hands; `nil` for anything else.
    static func parse(_ line: Data) -> Handed? {
        line.withUnsafeBytes { raw -> Handed? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.first == UInt8(ascii: "[") else { return nil }
            var fields = JSONElements(UnsafeBufferPointer(rebasing: bytes[1...]))
            guard let index = fields.int(), let written = fields.int(), let file = fields.string(),
                let name = fields.string()
            else { return nil }
            var handed = Handed(index: index, id: ScenarioID(file: file, name: name), line: written)
            guard let item = fields.next() else { return fields.isAtEnd() ? handed : nil }
            func part(_ value: JSONValue) -> ItemSource.Part? {
                guard case .array(let numbers) = value, numbers.count == 3, case .int(let start) = numbers[0],
                    case .int(let end) = numbers[1], case .int(let lineOffset) = numbers[2], start >= 0, end >= start,
                    lineOffset >= 0
                else { return nil }
                return ItemSource.Part(bytes: start..<end, lineOffset: lineOffset)
            }
            guard let itemPart = part(item), case .array(let keyValues)? = fields.next(), fields.isAtEnd() else {
                return nil
            }
            let keys = keyValues.compactMap(part)
            guard keys.count == keyValues.count else { return nil }
            handed.source = ItemSource(item: itemPart, keys: keys)
            return handed
        }
    }

    /// `after`: what was read from the channel past the run's own line.
    init(building builder: ScenarioBuilder, channel: Int32, after: Data = Data()) {
        let (stream, continuation) = AsyncStream.makeStream(of: Scenario.self)
        scenarios = stream
        let reading = Thread { [self] in
            read(channel, after: after)
            Self.exitWhenTheParentEnds(channel)
        }
        let building = Thread { [self] in
            build(with: builder, into: continuation)
        }
        reading.start()
        building.start()
    }

    /// Reads the channel to its end, each line into the queue; `after` first.
    private func read(_ channel: Int32, after: Data) {
        defer {
            queue.withLock { readAll = true }
            queue.broadcast()
        }
        var buffer = after
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // Each line is a slice of what was read; the lines read are dropped once per read.
            var start = buffer.startIndex
            var lines: [Handed] = []
            for offset in WorkerProcess.newlineOffsets(in: buffer) {
                let newline = buffer.startIndex + offset
                let line = buffer[start..<newline]
                start = newline + 1
                guard let parsed = Self.parse(line) else {
                    mismatch.withLock { $0 = $0 ?? "The parent sent a line that names no scenario." }
                    return
                }
                lines.append(parsed)
            }
            buffer.removeSubrange(buffer.startIndex..<start)
            if !lines.isEmpty {
                queue.withLock {
                    waiting += lines
                    readCount += lines.count
                }
                queue.broadcast()
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(channel, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Builds what was read, in order, while fewer than ``builtAhead`` are built and not finished; ends
    /// the stream at the end of the input, or at a scenario its file no longer holds.
    private func build(with builder: ScenarioBuilder, into continuation: AsyncStream<Scenario>.Continuation) {
        var builder = builder
        var next = 0
        defer { continuation.finish() }
        while true {
            queue.lock()
            while next == waiting.count && !readAll || next < waiting.count && unfinished >= Self.builtAhead {
                queue.wait()
            }
            guard next < waiting.count else {
                queue.unlock()
                return
            }
            let handed = waiting[next]
            next += 1
            unfinished += 1
            // The lines taken are dropped now and then, not one by one.
            if next >= 1_024 {
                waiting.removeFirst(next)
                next = 0
            }
            queue.unlock()
            guard let scenario = builder.scenario(handed.id, line: handed.line, source: handed.source) else {
                mismatch.withLock {
                    $0 =
                        $0 ?? "The scenario files changed while the run started: \(handed.id.file) no longer has "
                        + "'\(handed.id.name)' at line \(handed.line)."
                }
                return
            }
            self.handed.withLock { $0[handed.id] = (handed.index, scenario) }
            continuation.yield(scenario)
        }
    }

    /// The scenario `id`, handed over and now starting (each try of it), and its board index.
    func start(_ id: ScenarioID) -> (index: Int, scenario: Scenario)? {
        handed.withLock { $0[id] }
    }

    /// The scenario `id` has finished (or was skipped without starting): it is forgotten, and the next
    /// one read may be built.
    func finish(_ id: ScenarioID) {
        handed.withLock { _ = $0.removeValue(forKey: id) }
        let wake = queue.withLock {
            unfinished = max(0, unfinished - 1)
            finishedCount += 1
            return unfinished == Self.buildAgainAt
        }
        if wake { queue.signal() }
    }

    /// How many scenarios were handed and have not finished: read from the channel, built or not, the
    /// running one included.
    var handedUnfinished: Int {
        queue.withLock { max(0, readCount - finishedCount) }
    }

    /// How many scenarios were read from the channel (built or waiting to be): none yet while the first is on
    /// the way, when the worker warms its HTTP machinery up (``WorkerMain``).
    var read: Int {
        queue.withLock { readCount }
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
