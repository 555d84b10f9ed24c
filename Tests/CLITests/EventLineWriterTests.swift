import Foundation
import Scenarios
import Synchronization
import Testing

@testable import RunPipeline

/// How a worker sends its events: finished scenarios together while many are handed, at once when one
/// failed or few are left, and never later than the batch time — read from a real socket pair, as the
/// channel is.
struct EventLineWriterTests {
    static let a = ScenarioID(file: "Scenarios/a.yml", name: "A")
    static let b = ScenarioID(file: "Scenarios/a.yml", name: "B")
    static let c = ScenarioID(file: "Scenarios/a.yml", name: "C")

    /// The events of one scenario, started and finished with `outcome`.
    static func scenario(_ id: ScenarioID, _ outcome: ScenarioOutcome = .passed) -> [RunEvent] {
        [.scenarioStarted(id), .scenarioFinished(id, outcome: outcome, duration: .milliseconds(1))]
    }

    /// The events read from `descriptor`: what is there now, or, given `count`, up to `count` events
    /// waiting at most 30 seconds for them.
    static func read(_ descriptor: Int32, count: Int = 0) -> [RunEvent] {
        var data = Data()
        var events: [RunEvent] = []
        let deadline = ContinuousClock.now + .seconds(30)
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        repeat {
            let wait = events.count < count ? max(1, Int32((deadline - .now).components.seconds * 1000)) : 0
            guard poll(&entry, 1, wait) > 0 else { break }
            let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard read > 0 else { break }
            data.append(contentsOf: chunk[0..<read])
            events = WorkerProcess.messages(in: data).messages.compactMap {
                if case .event(let event) = $0 { event } else { nil }
            }
        } while ContinuousClock.now < deadline
        return events
    }

    /// A channel: the parent's end (read here) and the worker's (written by the writer).
    static func channel() throws -> (parent: Int32, worker: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func finishedScenariosWaitForEachOtherWhileManyAreHandedAndGoAtOnceWhenOneFailsOrFewAreLeft() throws {
        let (parent, worker) = try Self.channel()
        defer {
            close(parent)
            close(worker)
        }
        let unfinished = Mutex(10)
        let writer = EventLineWriter(
            channel: worker,
            unfinished: { unfinished.withLock { $0 } },
            batchTime: .seconds(600)
        )
        // The run's first start goes at once (the parent marks it); A's end and B's wait for more.
        for event in Self.scenario(Self.a) + Self.scenario(Self.b) { writer.write(event) }
        #expect(Self.read(parent) == [.scenarioStarted(Self.a)])
        // A failure is sent at once, with what waited before it, in order.
        for event in Self.scenario(Self.c, .failed(step: 0, reason: "no")) { writer.write(event) }
        #expect(
            Self.read(parent) == Array(Self.scenario(Self.a).dropFirst()) + Self.scenario(Self.b)
                + Self.scenario(Self.c, .failed(step: 0, reason: "no"))
        )
        // With two handed and unfinished (the finishing one and the next), a scenario's end goes at once.
        unfinished.withLock { $0 = 2 }
        for event in Self.scenario(Self.a) { writer.write(event) }
        #expect(Self.read(parent) == Self.scenario(Self.a))
    }

    /// Every line buffered is kept on the board until it is sent (the parent reads a dead worker's there); a
    /// line the board cannot hold beside the ones kept sends those first, and one it cannot hold at all is
    /// sent at once.
    @Test func whatTheBoardCannotHoldBesideIsSentFirst() throws {
        let (parent, worker) = try Self.channel()
        defer {
            close(parent)
            close(worker)
        }
        let board = try ProgressBoard(creatingSlots: 1)
        let writer = EventLineWriter(
            channel: worker,
            board: try ProgressBoard(path: board.path, slot: 0),
            unfinished: { 10 },
            batchTime: .seconds(600)
        )
        func kept() -> [RunEvent] {
            WorkerProcess.messages(in: board.unsent(in: 0)).messages.compactMap {
                if case .event(let event) = $0 { event } else { nil }
            }
        }
        let quarter = ProgressBoard.unsentCapacity / 4
        let first = RunEvent.log(Self.a, String(repeating: "x", count: 2 * quarter))
        let second = RunEvent.log(Self.a, String(repeating: "y", count: 2 * quarter))
        let large = RunEvent.log(Self.a, String(repeating: "z", count: 5 * quarter))
        writer.write(.scenarioStarted(Self.a))
        writer.write(first)
        #expect(Self.read(parent, count: 1) == [.scenarioStarted(Self.a)])
        #expect(kept() == [first])
        // Not beside the first: the first is sent, the second kept.
        writer.write(second)
        #expect(Self.read(parent, count: 1) == [first])
        #expect(kept() == [second])
        // Too large to keep at all: the second, then it, sent at once; nothing kept.
        writer.write(large)
        #expect(Self.read(parent, count: 2) == [second, large])
        #expect(kept().isEmpty)
        // A passed scenario's end waits with the others, kept meanwhile.
        let finished = RunEvent.scenarioFinished(Self.a, outcome: .passed, duration: .milliseconds(1))
        writer.write(finished)
        #expect(kept() == [finished])
        #expect(Self.read(parent).isEmpty)
    }

    @Test func aBatchIsSentWithinItsTimeThoughNothingElseHappens() throws {
        let (parent, worker) = try Self.channel()
        defer {
            close(parent)
            close(worker)
        }
        let writer = EventLineWriter(channel: worker, unfinished: { 10 }, batchTime: .milliseconds(50))
        for event in Self.scenario(Self.a) + Self.scenario(Self.b) { writer.write(event) }
        // The next scenario runs long (nothing more is written): the batch goes out on its own.
        #expect(Self.read(parent, count: 4) == Self.scenario(Self.a) + Self.scenario(Self.b))
    }
}
