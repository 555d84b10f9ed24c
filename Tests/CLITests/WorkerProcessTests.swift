import Foundation
import TestSupport
import Testing

@testable import RunPipeline

/// The parent's side of one worker process, with a shell script standing in for `scenario-run worker`.
struct WorkerProcessTests {
    /// A process with threads never forks a worker (the fork would hold copies of their locks): this test
    /// process has several, and says so.
    @Test func aProcessWithThreadsIsNotOneThread() throws {
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        try #require(threads.count > 1)
        #expect(!ForkedProcess.hasOneThread)
    }

    /// A worker that says it ended (`["end",0]`) is taken as ended then — with everything it wrote to
    /// its standard error before — not once the kernel has taken its process down: here the process
    /// goes on sleeping for a minute, and the end is reported within seconds.
    @Test func anAnnouncedEndIsTheEndWithTheStandardErrorBeforeIt() async throws {
        let script = #"""
            printf '["output","between scenarios"]\n' >&0
            echo "a warning before the end" >&2
            exec 2>&-
            printf '["end",0]\n' >&0
            exec sleep 60
            """#
        let lines = Recorder<RunEventLines.Message>()
        let exits = Recorder<WorkerExit>()
        let started = try WorkerProcess.start(
            arguments: ["-c", script],
            executable: URL(fileURLWithPath: "/bin/sh")
        )
        let worker = WorkerProcess(
            started,
            runLine: nil,
            forwardOutput: false,
            onLines: { $0.forEach(lines.append) },
            onExit: { exits.append($0) }
        )
        defer { worker.signal(SIGKILL) }
        #expect(await eventually(timeout: .seconds(20)) { !exits.all.isEmpty }, "the end, before the process ends")
        #expect(exits.all == [WorkerExit(status: 0, standardErrorTail: "a warning before the end\n")])
        #expect(lines.all == [.output("between scenarios")], "the end line is no message for the machine")
    }

    /// Without the end line, the worker's end is its process's: status and standard error as it ended.
    @Test func anUnannouncedEndIsTheProcesssEnd() async throws {
        let exits = Recorder<WorkerExit>()
        let started = try WorkerProcess.start(
            arguments: ["-c", "echo 'Fatal error: boom' >&2; exit 3"],
            executable: URL(fileURLWithPath: "/bin/sh")
        )
        _ = WorkerProcess(started, runLine: nil, forwardOutput: false, onLines: { _ in }, onExit: { exits.append($0) })
        #expect(await eventually(timeout: .seconds(20)) { !exits.all.isEmpty })
        #expect(exits.all == [WorkerExit(status: 3, standardErrorTail: "Fatal error: boom\n")])
    }
}
