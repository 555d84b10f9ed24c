import ArgumentParser
import Foundation
import RunPipeline
import Scenarios
import Steps

extension RunCommand {
    /// What every run ends with: the JUnit report, the failures for `--rerun-failed` and the requests
    /// sent for `check --openapi`'s coverage, the kept store
    /// (KIF_SKIP_TEAR_DOWN), and the exit status.
    func finish(
        _ summary: RunSummary,
        junit junitReporter: JUnitReporter?,
        events: EventStreamWriter?,
        html: HTMLReportWriter?,
        pool: WorkerPool?,
        state: StateCollector,
        failureState: FailureState,
        previousFailures: Set<ScenarioID>,
        settings: RunSettings,
        directory: URL
    ) throws {
        var reportFailed = false
        if let junit, let junitReporter {
            do {
                try junitReporter.write(to: URL(fileURLWithPath: junit))
            } catch {
                // The run's result is not known to CI without its report: not a success.
                Terminal.printError("error: The JUnit report was not written. \(error)")
                reportFailed = true
            }
        }
        do {
            try events?.finish()
        } catch {
            // A tool following the run read part of it: not a success either.
            Terminal.printError("error: The event stream (--events) was not written whole. \(error)")
            reportFailed = true
        }
        do {
            try html?.finish(notes: pool?.workerFailures ?? [])
        } catch {
            Terminal.printError("error: The HTML report was not written whole. \(error)")
            reportFailed = true
        }
        // Scenarios that did not run this time (filtered out, skipped) keep what the last run said.
        // Merged with the file as it is at the end, under a lock: another run in this folder may have
        // ended meanwhile.
        do {
            try failureState.update(ran: state.ran, failed: state.failed, fallback: previousFailures)
        } catch {
            Terminal.printError("warning: The failed scenarios were not saved for --rerun-failed: \(error)")
        }
        // A run in which nothing ran (cancelled while loading, everything skipped) keeps the last one's.
        let sent = state.sentRequests(finished: Date())
        do {
            if sent.scenarios > 0 { try SentRequestsState(projectDirectory: directory).save(sent) }
        } catch {
            Terminal.printError("warning: The requests sent were not saved for check's coverage: \(error)")
        }
        // The run's line in the history the HTML report shows: a run in which nothing ran adds none.
        if sent.scenarios > 0 {
            do {
                try RunHistory(projectDirectory: directory).append(state.historyRun(summary, finished: Date()))
            } catch {
                Terminal.printError("warning: The run was not added to .scenario-run/history.jsonl: \(error)")
            }
        }
        if settings.skipTearDown {
            do {
                if let lines = try KeptStore.keep(in: directory) { print(lines.joined(separator: "\n")) }
            } catch {
                Terminal.printError("error: Could not keep the store: \(error)")
            }
        }
        if reportFailed { throw ExitCode(2) }
        if summary.failed > 0 || summary.cancelled { throw ExitCode(1) }
    }
}

extension RunCommand {
    /// Writes what `--record` recorded and says so after the run's summary: each exchange, what was added,
    /// replaced, kept and redacted. Whether it was written whole.
    static func write(_ recording: Recording, output: StandardOutput) -> Bool {
        let lines: [String]
        let written: Bool
        do throws(Recording.WriteFailed) {
            lines = try recording.write(listing: true)
            written = true
        } catch {
            lines = error.lines
            written = false
        }
        output.write("Recording from \(recording.target):\n" + lines.joined(separator: "\n") + "\n")
        return written
    }
}
