import Foundation
import Scenarios
import Steps
import TestSupport
import Testing

@testable import RunPipeline

/// What a worker does with the lines its parent writes: builds each scenario as it arrives, keeps its
/// board index for every try, and refuses a scenario its file no longer holds — through a real socket
/// pair, as the channel is.
struct ScenarioInputTests {
    /// The line feeds a worker splits its parent's lines at (`WorkerProcess.newlineOffsets`, shared with
    /// the parent's reading of its workers) are where `firstIndex(of:)` finds them, counted from the
    /// buffer's start — in a whole buffer and in a slice of one, whose indices do not start at 0.
    @Test func lineFeedsAreFoundWhereFirstIndexFindsThem() {
        let data = Data("ab\ncd\n\nxyz".utf8)
        for buffer in [data, data[4...], Data()] {
            let expected = buffer.indices.filter { buffer[$0] == 0x0A }.map { $0 - buffer.startIndex }
            #expect(WorkerProcess.newlineOffsets(in: buffer) == expected, "\(Array(buffer))")
        }
    }

    static let count = 20

    /// A scenario file of `count` scenarios, and its scenarios as the parent loads them.
    static func project() throws -> (path: String, loaded: [Scenario], builder: ScenarioBuilder) {
        let folder = CLI.scratchRoot.appendingPathComponent("input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("many.yml").path
        let text = "scenarios:\n" + (0..<count).map { "  - scenario: S\($0)\n    steps: [succeed]\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let registry = try BuiltInSteps.registry(adding: [])
        let context = StepBuildContext(fixturesDirectory: folder)
        let loaded = try ScenarioLoader(registry: registry, buildContext: context).load(paths: [path])
        return (path, loaded, ScenarioBuilder(registry: registry, buildContext: context))
    }

    /// A channel: the parent's end (written here) and the worker's (read by the input). The parent's end
    /// is never closed: a worker's input ends its process when the parent hangs up, and here that
    /// process is the tests'.
    static func channel() throws -> (parent: Int32, worker: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    static func send(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    @Test func scenariosAreReadAtOnceBuiltAFewAheadAndKeptForEveryTry() async throws {
        let (_, loaded, builder) = try Self.project()
        let (parent, worker) = try Self.channel()
        let input = ScenarioInput(building: builder, channel: worker)
        Self.send(
            loaded.enumerated().map { ScenarioInput.line(index: $0, id: $1.id, line: $1.location.line) }.joined(),
            to: parent
        )
        // Every one is read while none has run (reading never waits for the run); only a few are built.
        #expect(await eventually(timeout: .seconds(30)) { input.read == Self.count })
        let ahead = ScenarioInput.builtAhead
        #expect(await eventually(timeout: .seconds(30)) { input.start(loaded[ahead - 1].id) != nil })
        #expect(input.start(loaded[ahead].id) == nil, "built past \(ahead) unfinished")
        // A scenario's every try finds its index; once it finished it is forgotten, and the next is built.
        #expect(input.start(loaded[1].id)?.index == 1)
        #expect(input.start(loaded[1].id)?.index == 1, "a retry")
        #expect(input.start(loaded[1].id)?.scenario.name == "S1")
        #expect(input.handedUnfinished == Self.count)
        input.finish(loaded[1].id)
        #expect(input.start(loaded[1].id) == nil, "forgotten once finished")
        #expect(input.handedUnfinished == Self.count - 1, "what the event writer batches by")
        var iterator = input.scenarios.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.id == loaded[0].id, "in the order handed")
        // The building thread is woken again when few built are unfinished, not at every end: ends down to
        // one above that build nothing more; the next builds to `builtAhead` again (here, to the last).
        let unfinishedBuilt = ahead - 1
        let quietEnds = unfinishedBuilt - ScenarioInput.buildAgainAt - 1
        for scenario in loaded[2..<(2 + quietEnds)] { input.finish(scenario.id) }
        #expect(input.start(loaded[ahead].id) == nil, "built again before few were left")
        input.finish(loaded[2 + quietEnds].id)
        #expect(await eventually(timeout: .seconds(30)) { input.start(loaded[Self.count - 1].id) != nil })
        for scenario in [loaded[0]] + loaded[(3 + quietEnds)...] {
            #expect(await eventually(timeout: .seconds(30)) { input.start(scenario.id) != nil }, "\(scenario.name)")
            input.finish(scenario.id)
        }
        #expect(input.handedUnfinished == 0)
        #expect(input.problem == nil)
    }

    /// A line names the scenario, and where its item and its file's keys are written when the parent
    /// knows; anything else is no line.
    @Test func aLineReadsBackAsWhatItHands() throws {
        let id = ScenarioID(file: "Scenarios/a \"b\".yml", name: "Ça ✓")
        let source = ItemSource(
            item: .init(bytes: 120..<188, lineOffset: 6),
            keys: [.init(bytes: 3..<21, lineOffset: 0), .init(bytes: 21..<40, lineOffset: 1)]
        )
        for handed in [
            ScenarioInput.Handed(index: 7, id: id, line: 9, source: source),
            ScenarioInput.Handed(index: 0, id: id, line: 1, source: nil),
        ] {
            let line = ScenarioInput.line(index: handed.index, id: handed.id, line: handed.line, source: handed.source)
            #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
            #expect(ScenarioInput.parse(Data(line.dropLast().utf8)) == handed)
        }
        for wrong in [
            "[1,2,\"f\"]", "[1,2,\"f\",\"n\",[5,4,0],[]]", "[1,2,\"f\",\"n\",[0,4,-1],[]]", "[1,2,\"f\",\"n\",[0,4,0]]",
        ] {
            #expect(ScenarioInput.parse(Data(wrong.utf8)) == nil, "\(wrong)")
        }
    }

    @Test func aScenarioItsFileNoLongerHoldsEndsTheInputInWords() async throws {
        let (path, loaded, builder) = try Self.project()
        let (parent, worker) = try Self.channel()
        let input = ScenarioInput(building: builder, channel: worker)
        let gone = ScenarioID(file: path, name: "Renamed")
        Self.send(
            ScenarioInput.line(index: 0, id: loaded[0].id, line: loaded[0].location.line)
                + ScenarioInput.line(index: 1, id: gone, line: loaded[1].location.line)
                + ScenarioInput.line(index: 2, id: loaded[2].id, line: loaded[2].location.line),
            to: parent
        )
        var received: [String] = []
        for await scenario in input.scenarios { received.append(scenario.name) }
        #expect(received == ["S0"], "nothing after the one it refused")
        #expect(
            input.problem
                == "The scenario files changed while the run started: \(path) no longer has 'Renamed' at line \(loaded[1].location.line)."
        )
    }
}

/// Through the binary: a lone worker is handed 1,024 scenarios at once, more than its channel's buffer
/// holds, and the rest as those finish, while it writes its events back, and runs them all. (A worker that stopped reading
/// until it had run some of them, tried once, waited for ever on its parent at N=10,000 in a release
/// build; this debug-build run did not catch that timing, and guards the path that replaced it.)
@Suite(.serialized)
struct LoneWorkerChannelTests {
    @Test func aLoneWorkerHandedThousandsOfScenariosFarAheadRunsThemAll() async throws {
        // Names long enough that the 1,024 lines handed at once (about 300 KB) overflow a socket's buffer.
        let count = 1_100
        let padding = String(repeating: "a long scenario name ", count: 12)
        let text =
            "scenarios:\n" + (0..<count).map { "  - scenario: S\($0) \(padding)\n    steps: [succeed]\n" }.joined()
        let project = try CLI.project(["Scenarios/many.yml": text])
        let running = try CLI.Running(["--ci", "--jobs", "1"], directory: project, environment: [:])
        let ended = await running.ended(within: .seconds(120))
        let result = await running.wait()
        #expect(ended, "still running after 120 s: \(result.stdout.suffix(300))")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\(count) passed, 0 failed\n"), "\(result.stdout.suffix(300))")
    }
}

extension ScenarioInput {
    /// The line that hands a worker a scenario, as the parent writes it (``append(index:id:line:source:to:)``).
    static func line(index: Int, id: ScenarioID, line: Int, source: ItemSource? = nil) -> String {
        var bytes: [UInt8] = []
        append(index: index, id: id, line: line, source: source, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
