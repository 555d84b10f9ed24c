import Foundation
import Testing

/// `--events FILE`: the run's events as JSON lines (docs/events.md), the same from every executor.
@Suite(.serialized)
struct EventStreamTests {
    /// The lines of an events file, parsed.
    static func lines(_ url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// Each scenario's events in order (its log lines as a set, after them), times, waits and workers left out (how often a step waits, how long it
    /// had left and how long it took differ from run to run).
    static func byScenario(_ lines: [[String: Any]]) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        var logs: [String: [String]] = [:]
        for var line in lines where line["event"] as? String != "step-waiting" {
            line["duration"] = nil
            line["waited"] = nil
            // Which worker a scenario ran in is the executor's.
            line["worker"] = nil
            // A reason may say how long a wait took (`gave up after 0.504 s`); the timeout it names stays.
            if let reason = line["reason"] as? String {
                line["reason"] = reason.replacing(/after \d+\.\d+ s\b/, with: "after N s")
            }
            // Requests sent together arrive in either order.
            if line["event"] as? String == "requests", let requests = line["requests"] as? [[String: String]] {
                line["requests"] = requests.sorted {
                    ($0["method"] ?? "", $0["path"] ?? "") < ($1["method"] ?? "", $1["path"] ?? "")
                }
            }
            let key = "\(line["file"] ?? "-") \(line["scenario"] ?? "-")"
            let text = String(
                decoding: try JSONSerialization.data(withJSONObject: line, options: .sortedKeys),
                as: UTF8.self
            )
            // Requests that finish together log in either order: log lines are compared as a set.
            if line["event"] as? String == "log" {
                logs[key, default: []].append(text)
            } else {
                result[key, default: []].append(text)
            }
        }
        for (key, lines) in logs { result[key, default: []] += lines.sorted() }
        return result
    }

    /// In this process, in one worker and in two: every scenario's events are the same — step starts,
    /// failures with their places, a skipped scenario — and the run's first and last lines frame them.
    @Test func everyExecutorGivesTheSameEvents() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = ["Scenarios/reviews.yml", "Scenarios/examples-failing/failing.yml", "Scenarios/queue.yml"]
        var streams: [[String: [String]]] = []
        for (index, mode) in [["--in-process"], ["--jobs", "1"], ["--jobs", "2"]].enumerated() {
            let file = folder.appendingPathComponent("\(index).jsonl")
            let result = try await CLI.run(["--ci", "--events", file.path] + mode + paths)
            #expect(result.status == 1, "\(mode): \(result.stderr)")
            let lines = try Self.lines(file)
            let first = try #require(lines.first)
            #expect(first["event"] as? String == "run-started")
            #expect(lines.allSatisfy { $0["version"] as? Int == 1 }, "every line carries the form's version")
            let planned = try #require(first["scenarios"] as? [[String: Any]])
            let last = try #require(lines.last)
            #expect(last["event"] as? String == "run-finished")
            let summary = try #require(result.stdout.split(separator: "\n").last)
            #expect(summary == "\(last["passed"] ?? -1) passed, \(last["failed"] ?? -1) failed", "\(mode)")
            let finished = lines.filter { $0["event"] as? String == "scenario-finished" }
            #expect(finished.count == planned.count, "one end per planned scenario")
            #expect(lines.contains { $0["event"] as? String == "step-started" }, "step starts, with workers too")
            let failure = try #require(
                lines.first { $0["event"] as? String == "step-finished" && $0["outcome"] as? String == "failed" }
            )
            #expect(
                (failure["location"] as? [String: Any])?["file"] as? String == "Scenarios/examples-failing/failing.yml"
            )
            streams.append(try Self.byScenario(lines))
        }
        for (index, name) in [(1, "one worker"), (2, "two workers")] {
            let differing = Set(streams[0].keys).union(streams[index].keys).filter {
                streams[0][$0] != streams[index][$0]
            }
            #expect(differing.isEmpty, "in-process and \(name) differ for \(differing.sorted())")
        }
    }

    /// The run's options reach a worker as they reach this process: a step timeout (named in a failure's
    /// reason), fail-fast and repetitions give the same events in both.
    @Test func optionsGiveTheSameEventsWithAWorker() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = [
            "--timeout", "7", "--fail-fast", "--repeat", "2", "Scenarios/queue.yml",
            "Scenarios/examples-failing/failing.yml", "Scenarios/reviews.yml",
        ]
        var streams: [[String: [String]]] = []
        for (index, mode) in [["--in-process"], ["--jobs", "1"]].enumerated() {
            let file = folder.appendingPathComponent("\(index).jsonl")
            let result = try await CLI.run(["--ci", "--events", file.path] + mode + options)
            #expect(result.status == 1, "\(result.stdout)")
            #expect(result.stdout.contains("skipped"), "fail-fast skips what follows the failure: \(result.stdout)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("before the 7.0 s timeout"), "the timeout reached the run: \(mode)")
            streams.append(try Self.byScenario(try Self.lines(file)))
        }
        let differing = Set(streams[0].keys).union(streams[1].keys).filter { streams[0][$0] != streams[1][$0] }
        #expect(differing.isEmpty, "in-process and a worker differ for \(differing.sorted())")
    }

    /// A stream that cannot be written is an error, never a silent green: a folder that is not there
    /// before the run (a usage error), a full device during it (exit 2, saying so).
    @Test func aStreamThatCannotBeWrittenIsAnError() async throws {
        let missing = try await CLI.run(["--ci", "--events", "/no/such/folder/e.jsonl", "Scenarios/reviews.yml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--events:"), "\(missing.stderr)")
        let full = try await CLI.run(["--ci", "--events", "/dev/full", "Scenarios/reviews.yml"])
        #expect(full.status == 2, "\(full.stderr)")
        #expect(full.stderr.contains("error: The event stream (--events) was not written whole."), "\(full.stderr)")
        #expect(full.stdout.hasSuffix("11 passed, 0 failed\n"), "the run itself went on: \(full.stdout)")
    }
}
