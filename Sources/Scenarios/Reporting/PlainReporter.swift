import Diagnostics
import Synchronization

/// Headless progress: one line per scenario, the steps of failing scenarios (of every scenario when
/// verbose) with the failing step's reason and `FILE:LINE`, the warnings of passing ones (`leaks: warn`),
/// and a last line `N passed, N failed`.
///
/// ```
/// ✓ Posting a review (0.012 s)
/// ✗ Posting a review that the server rejects (0.031 s)
///     ✓ set up the test environment
///     ✗ expect response {status: 201}
///       Expected status 201, got 422
///       at Scenarios/reviews.yml:12
///     ✓ tear down the test environment
///
/// FLAKY 1/2 Loading the restaurant list
/// 2 passed, 1 failed
/// ```
package final class PlainReporter: Sendable {
    private let verbose: Bool
    private let colors: Bool
    private let repetitions: Int
    private let write: @Sendable (String) -> Void
    /// The record the events are read into: its own, or one it shares (``SharedRunRecord``), which the
    /// caller applies the events to.
    private let source: SharedRunRecord
    private let ownsRecord: Bool

    /// `colors` turns on ANSI colours (the caller decides from isatty and `NO_COLOR`); `repetitions` is
    /// `--repeat`'s count, for `15 repetitions` and `failed on repetition 7 of 15`; `write` receives text
    /// in pieces that end with a newline; `record`, one the caller applies the events to for this reporter
    /// and others (``SharedRunRecord``), else the reporter keeps its own.
    package init(
        verbose: Bool = false,
        colors: Bool = false,
        repetitions: Int = 1,
        record: SharedRunRecord? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.verbose = verbose
        self.colors = colors
        self.repetitions = repetitions
        self.write = write
        source = record ?? SharedRunRecord()
        ownsRecord = record == nil
    }

    /// Consumes one event, writing what it completes.
    package func handle(_ event: RunEvent) {
        // Events the record keeps nothing of: not even the lock.
        if RunRecord.keepsNothing(of: event) { return }
        // The text made where the record is (no copy of it); written outside the lock.
        let text = source.record.withLock { record -> String? in
            if ownsRecord { record.apply(event) }
            switch event {
            case .scenarioFinished(let id, let outcome, let duration):
                // Names, reasons and logs come from files and apps: shown, never obeyed (TerminalText).
                let text = scenarioText(id, outcome: outcome, duration: duration, record: record)
                // Written: forget its steps and logs, so memory stays flat however long the run.
                if ownsRecord { record.forget(id) }
                return text
            case .runFinished(let summary):
                var text = "\n"
                // Scenarios that passed only on a retry: counted as passed, named here.
                for flaky in record.flaky {
                    text += paint(TerminalText.escaped(flaky.line, keepingLineBreaks: false), .yellow) + "\n"
                }
                if summary.cancelled { text += paint("Run cancelled.", .yellow) + "\n" }
                text += summary.line + "\n"
                return text
            default:
                return nil
            }
        }
        if let text { write(text) }
    }

    private func scenarioText(
        _ id: ScenarioID,
        outcome: ScenarioOutcome,
        duration: Duration,
        record: RunRecord
    ) -> String {
        let name = TerminalText.escaped(id.name, keepingLineBreaks: false)
        // A scenario run more than once says how: its repetitions (`--repeat`, the one that failed) and tries
        // (`--retries`).
        func note() -> String? { record.scenario(id)?.tryNote(repetitions: repetitions) }
        switch outcome {
        case .skipped:
            let reason =
                record.planned(id)?.skip.map { ": \(TerminalText.escaped($0, keepingLineBreaks: false))" } ?? ""
            return paint("- \(name) (skipped\(reason))", .yellow) + "\n"
        case .passed:
            return line(paint("✓", .green), name, duration, note: note())
                + (verbose ? steps(id, record: record) : warnings(id, record: record))
        case .failed:
            return line(paint("✗", .red), name, duration, note: note()) + steps(id, record: record)
        }
    }

    /// `✓ NAME (0.012 s)`, `✗ NAME (0.031 s, 3 tries)`: a scenario's line, built as bytes (one for every
    /// scenario of a run).
    private func line(_ glyph: String, _ name: String, _ duration: Duration, note: String?) -> String {
        var line = TextBytes(capacity: 32 + name.utf8.count)
        line.append(glyph)
        line.append(" ")
        line.append(name)
        line.append(" (")
        line.append(fixedSeconds: duration)
        line.append(" s")
        if let note {
            line.append(", ")
            line.append(note)
        }
        line.append(")\n")
        return line.text
    }

    private func steps(_ id: ScenarioID, record: RunRecord) -> String {
        var text = ""
        for line in record.stepLines(id) {
            let description = TerminalText.escaped(line.description, keepingLineBreaks: false)
            switch line.outcome {
            case .failed(let reason, let location)?:
                text += "    " + paint("✗", .red) + " \(description)\n"
                text += "      " + paint(Self.indented(reason, by: "      "), .red) + "\n"
                if let location {
                    // A row's steps are the outline's: its own line runs that row alone.
                    let row = record.planned(id).flatMap { $0.row == nil ? nil : $0.location.fileAndLine }
                    let at = "at \(location.fileAndLine)" + (row.map { ", example row \($0)" } ?? "")
                    text += "      " + paint(TerminalText.escaped(at, keepingLineBreaks: false), .dim) + "\n"
                }
            case .warned(let reason)?:
                text += warning(line.description, reason)
            case .passed?:
                text += "    " + paint("✓", .green) + " \(description)\n"
            case .skipped?, nil:
                text += "    " + paint("- \(description) (skipped)", .yellow) + "\n"
            }
        }
        for log in record.scenario(id)?.logs ?? [] {
            text += "    " + paint(Self.indented("log: \(log)", by: "         "), .dim) + "\n"
        }
        return text
    }

    /// The warned steps of a passing scenario (`leaks: warn`), each with its reason.
    private func warnings(_ id: ScenarioID, record: RunRecord) -> String {
        let warned =
            record.scenario(id)?.steps.contains { if case .warned? = $0 { true } else { false } } ?? false
        guard warned else { return "" }
        var text = ""
        for line in record.stepLines(id) {
            if case .warned(let reason)? = line.outcome { text += warning(line.description, reason) }
        }
        return text
    }

    private func warning(_ description: String, _ reason: String) -> String {
        "    " + paint("⚠", .yellow) + " \(TerminalText.escaped(description, keepingLineBreaks: false))\n" + "      "
            + paint(Self.indented(reason, by: "      "), .yellow) + "\n"
    }

    /// Text from files and apps with its line breaks kept, each further line indented like the first, so
    /// that no reason or log can start a line of its own (a forged `✓ …` or `99 passed, 0 failed`).
    static func indented(_ text: String, by indent: String) -> String {
        let escaped = TerminalText.escaped(text)
        guard escaped.utf8.contains(UInt8(ascii: "\n")) else { return escaped }
        return escaped.replacingOccurrences(of: "\n", with: "\n" + indent)
    }

    private enum Colour: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case dim = "2"
    }

    private func paint(_ text: String, _ colour: Colour) -> String {
        colors ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}
