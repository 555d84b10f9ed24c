import Foundation
import TestSupport
import Testing

/// Runs the built binary on hostile input: under an address-space limit, with a time limit waited on as a
/// condition, and tells a crash from an orderly exit.
enum BoundedRun {
    /// The address space the binary may use (2 GiB), enforced by `prlimit --as`: going over makes an
    /// allocation fail, which is a crash, which the test reports.
    static let addressSpaceBytes = 2 << 30
    /// How long one run may take before it counts as a hang and is killed: twice what the slowest case
    /// (two million errors, debug) takes under a full parallel `swift test` on two cores.
    static let timeLimit: Double = 120

    struct Result {
        var status: Int32
        /// Whether the process ended by a signal (a crash, or killed after the time limit).
        var signalled: Bool
        var timedOut: Bool
        var stderr: String

        /// The first `FILE:LINE:COL: error: …` line of standard error.
        var firstError: String? {
            stderr.split(separator: "\n").first { $0.contains(": error: ") }.map(String.init)
        }

        /// Whether standard error shows a crash report rather than an orderly error.
        var crashed: Bool {
            signalled || stderr.contains("Fatal error") || stderr.contains("Program crashed")
                || stderr.contains("Segmentation fault") || stderr.contains("Illegal instruction")
        }
    }

    /// Runs `scenario-run ARGUMENTS` in `directory` under the limits (through ``CLI/Running``, which waits
    /// without holding a test thread).
    static func run(_ arguments: [String], directory: URL) async throws -> Result {
        let running = try CLI.Running(
            ["--as=\(addressSpaceBytes)", "--", CLI.binary.path] + arguments,
            directory: directory,
            environment: ["NO_COLOR": "1"],
            executable: URL(fileURLWithPath: "/usr/bin/prlimit")
        )
        let timedOut = !(await eventually(timeout: .seconds(timeLimit)) { !running.process.isRunning })
        if timedOut { running.process.terminate() }
        let result = await running.wait()
        return Result(
            status: result.status,
            signalled: running.process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            stderr: result.stderr
        )
    }

    /// Expects an orderly exit 2 within the limits whose first error line is `expected`.
    static func expectRejected(
        _ result: Result,
        firstError expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!result.timedOut, "still running after \(timeLimit) s", sourceLocation: sourceLocation)
        #expect(!result.crashed, "crashed: \(result.stderr.prefix(2000))", sourceLocation: sourceLocation)
        #expect(
            result.status == 2,
            "exit status \(result.status): \(result.stderr.prefix(2000))",
            sourceLocation: sourceLocation
        )
        #expect(result.firstError == expected, sourceLocation: sourceLocation)
        // Includes this run's child, which has been waited for (and any other child of the test process).
        #expect(
            peakChildResidentBytes < 1 << 30,
            "a child's peak resident set: \(peakChildResidentBytes) bytes",
            sourceLocation: sourceLocation
        )
    }

    /// The largest resident set of any child this process has waited for so far, in bytes (Linux counts
    /// `ru_maxrss` in kilobytes).
    static var peakChildResidentBytes: Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}
