import Foundation
import TestSupport
import Testing

/// Runs the built `scenario-run` binary, as a user would, with its output captured in files.
enum CLI {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The products folder holding `scenario-run` (next to the test bundle, as argument-parser's
    /// AssertExecuteCommand finds it).
    static var binary: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("scenario-run"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("scenario-run"),
            repositoryRoot.appendingPathComponent(".build/debug/scenario-run"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    /// The CI's parallel-job variables: a test run inside a sharded CI job must not shard the runs it starts.
    static let shardVariables = [
        "CI_NODE_INDEX", "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB",
        "BUILDKITE_PARALLEL_JOB_COUNT",
    ]

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A started process whose output goes to temporary files. Waiting for it holds no thread: the
    /// test runner's threads are shared with every test running meanwhile (two on two cores), and a test
    /// blocked in `waitUntilExit` starved the timing-sensitive ones.
    final class Running: @unchecked Sendable {
        let process = Process()
        let stdoutURL: URL
        let stderrURL: URL
        private let exits: AsyncStream<Void>

        init(_ arguments: [String], directory: URL, environment: [String: String], executable: URL = CLI.binary) throws
        {
            // In the process's scratch folder, removed when it exits: a full `swift test` runs about a thousand.
            let temporary = CLI.scratchRoot.appendingPathComponent("scenario-run-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            stdoutURL = temporary.appendingPathComponent("stdout")
            stderrURL = temporary.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            var merged = ProcessInfo.processInfo.environment
            for name in ["KIF_SKIP_TEAR_DOWN", "KIF_SCENARIO_FILTER", "KIF_EXIT_ON_FAILURE", "NO_COLOR"]
                + CLI.shardVariables
            { merged[name] = nil }
            merged.merge(environment) { _, new in new }
            process.environment = merged
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            process.standardInput = FileHandle.nullDevice
            let (exits, exited) = AsyncStream.makeStream(of: Void.self)
            self.exits = exits
            process.terminationHandler = { _ in
                exited.yield()
                exited.finish()
            }
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// Whether the process ends within `limit`, waited on as a condition; one still running then is
        /// killed (`SIGKILL`), so that a hang fails its test instead of holding the suite.
        func ended(within limit: Duration) async -> Bool {
            let ended = await eventually(timeout: limit) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            return ended
        }

        func wait() async -> Result {
            for await _ in exits { break }
            return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
        }
    }

    static func run(
        _ arguments: [String],
        directory: URL = repositoryRoot,
        environment: [String: String] = [:],
        executable: URL = CLI.binary
    ) async throws -> Result {
        try await Running(arguments, directory: directory, environment: environment, executable: executable).wait()
    }

    /// A scratch project folder with the repository's fixtures and the given scenario files.
    /// The names in a project's `.scenario-run/last-failed.json` (`{"failed": [{"file", "name"}]}`), in order.
    static func failedNames(in project: URL) throws -> [String] {
        let data = try Data(contentsOf: project.appendingPathComponent(".scenario-run/last-failed.json"))
        return try JSONDecoder().decode([String: [[String: String]]].self, from: data)["failed"]?.compactMap {
            $0["name"]
        } ?? []
    }

    /// Whether the `--events` file at `events` says the scenario `name` of `file` has started.
    static func eventsSayStarted(_ name: String, file: String, in events: URL) -> Bool {
        ((try? String(contentsOf: events, encoding: .utf8)) ?? "").contains(
            #""event":"scenario-started","file":"\#(file)","scenario":"\#(name)""#
        )
    }

    /// One folder per test process for its scratch projects, removed when the process exits (a full
    /// `swift test` makes a few hundred, each with a copy of `Fixtures/`).
    static var scratchRoot: URL { TemporaryFolder.processScratch }

    static func project(_ files: [String: String]) throws -> URL {
        let folder = scratchRoot.appendingPathComponent("scenario-run-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Scenarios"),
            withIntermediateDirectories: true
        )
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures"),
            to: folder.appendingPathComponent("Fixtures")
        )
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }
}
