import Diagnostics
package import Foundation
import Synchronization

/// A JUnit XML report: a `testsuite` per scenario file (named after its feature), a `testcase` per
/// scenario with its time and where it is written (`file`, `line`: GitLab, Jenkins and GitHub's test reporters
/// link to it), a `failure` for the failing step, `skipped`, and in `system-out` the step lines, the log and
/// the request log of its last try (when the run reports one, ``RunSettings/requestLog``): one line per
/// request — method, target, status and route, no bodies.
///
/// ```swift
/// let junit = JUnitReporter()
/// for await event in runner.events(running: scenarios) { junit.handle(event) }
/// try junit.write(to: URL(fileURLWithPath: "report.xml"))
/// ```
package final class JUnitReporter: Sendable {
    private let record = Mutex(RunRecord())
    /// Finished scenarios' `testcase` elements, rendered as they finish so that their steps and logs need
    /// not be kept for the whole run (the counts and times are the run's tally).
    private let finished = Mutex([ScenarioID: String]())
    /// Written in every testsuite's `<properties>` (where JUnit's schema and its readers — Jenkins,
    /// GitLab — look for them); none, no `<properties>` element.
    private let properties: [JUnitProperty]
    /// `--repeat`'s count: a failure names the repetition it happened on (`Failed on repetition 7 of 15: …`).
    private let repetitions: Int

    package init(properties: [JUnitProperty] = [], repetitions: Int = 1) {
        self.properties = properties
        self.repetitions = repetitions
    }

    /// Consumes one event.
    package func handle(_ event: RunEvent) {
        let done = record.withLock { record -> (ScenarioID, RunRecord)? in
            record.apply(event)
            if case .runStarted = event { finished.withLock { $0.removeAll() } }
            guard case .scenarioFinished(let id, _, _) = event else { return nil }
            return (id, record)
        }
        guard let (id, snapshot) = done, let planned = snapshot.planned(id), snapshot.scenario(id)?.outcome != nil
        else { return }
        let xml = testcase(planned, record: snapshot)
        finished.withLock { $0[id] = xml }
        record.withLock { $0.forget(id) }
    }

    /// The report so far.
    package func xml() -> String {
        let record = self.record.withLock { $0 }
        let finished = self.finished.withLock { $0 }
        var files: [String] = []
        var byFile: [String: [RunPlan.PlannedScenario]] = [:]
        for scenario in record.plan.scenarios {
            if byFile[scenario.id.file] == nil { files.append(scenario.id.file) }
            byFile[scenario.id.file, default: []].append(scenario)
        }
        func counts(_ scenarios: [RunPlan.PlannedScenario]) -> (failures: Int, skipped: Int, time: Duration) {
            let counts = record.tally.counts(of: scenarios.map(\.id))
            let time = scenarios.reduce(Duration.zero) { $0 + (record.tally.duration(of: $1.id) ?? .zero) }
            return (counts.failed, counts.skipped, time)
        }

        let all = counts(record.plan.scenarios)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="scenario-run" tests="\#(record.plan.scenarios.count)" failures="\#(all.failures)" skipped="\#(all.skipped)" time="\#((record.summary?.duration ?? all.time).fixedSeconds)">"#
            + "\n"
        for file in files {
            let scenarios = byFile[file] ?? []
            let feature = scenarios.first?.feature ?? file
            let suite = counts(scenarios)
            xml +=
                #"  <testsuite name="\#(escape(feature))" file="\#(escape(file))" tests="\#(scenarios.count)" failures="\#(suite.failures)" skipped="\#(suite.skipped)" time="\#(suite.time.fixedSeconds)">"#
                + "\n"
            if !properties.isEmpty {
                xml += "    <properties>\n" + properties.map(\.xml).joined() + "    </properties>\n"
            }
            for scenario in scenarios {
                xml += finished[scenario.id] ?? testcase(scenario, record: record)
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Writes the report whole or not at all, or through a device, FIFO or link (``FileWriteError/write(_:to:)``).
    package func write(to url: URL) throws(FileWriteError) {
        let xml = xml()
        try FileWriteError.write(Data(xml.utf8), to: url)
    }

    private func testcase(_ scenario: RunPlan.PlannedScenario, record: RunRecord) -> String {
        let entry = record.scenario(scenario.id)
        var xml =
            #"    <testcase classname="\#(escape(scenario.feature))" name="\#(escape(scenario.id.name))" file="\#(escape(scenario.location.file))" line="\#(scenario.location.line)" time="\#((entry?.duration ?? .zero).fixedSeconds)">"#
            + "\n"
        /// Where a try failed, as element text: the step and its `FILE:LINE`.
        func failedStep(_ index: Int) -> String {
            let step = scenario.steps.indices.contains(index) ? scenario.steps[index] : nil
            var body = step?.description ?? "step \(index + 1)"
            if let location = step?.location { body += " at \(location.fileAndLine)" }
            return Self.escape(body)
        }
        /// A failure's message: its reason, after the repetition it happened on when there are several.
        func message(_ reason: String, repetition: Int) -> String {
            escape(repetitions > 1 ? "Failed on repetition \(repetition) of \(repetitions): \(reason)" : reason)
        }
        // Earlier failed tries (`--retries`), as Maven Surefire writes reruns: `flakyFailure` on a
        // testcase that passed in the end, `rerunFailure` on one that failed.
        let earlier = entry?.failedTries ?? []
        switch entry?.outcome {
        case .failed(let index, let reason)?:
            let failed = message(reason, repetition: entry?.repetition ?? 1)
            xml += #"      <failure message="\#(failed)">\#(failedStep(index))</failure>"# + "\n"
            for failure in earlier {
                let rerun = message(failure.reason, repetition: failure.repetition)
                xml += #"      <rerunFailure message="\#(rerun)">\#(failedStep(failure.step))</rerunFailure>"# + "\n"
            }
        case .skipped?, nil:
            // `skip:` in the file says why; a scenario skipped by fail-fast or a cancel has no reason.
            if let reason = scenario.skip {
                xml += #"      <skipped message="\#(escape(reason))"/>"# + "\n"
            } else {
                xml += "      <skipped/>\n"
            }
        case .passed?:
            for failure in earlier {
                let flaky = message(failure.reason, repetition: failure.repetition)
                xml += #"      <flakyFailure message="\#(flaky)">\#(failedStep(failure.step))</flakyFailure>"# + "\n"
            }
        }
        if entry != nil, entry?.outcome != .skipped {
            var lines: [String] = []
            for line in record.stepLines(scenario.id) {
                switch line.outcome {
                case .failed(let reason, _)?: lines.append("✗ \(line.description): \(reason)")
                case .warned(let reason)?: lines.append("⚠ \(line.description): \(reason)")
                case .passed?: lines.append("✓ \(line.description)")
                case .skipped?, nil: lines.append("- \(line.description) (skipped)")
                }
            }
            lines += (entry?.logs ?? []).map { "log: \($0)" }
            lines += (entry?.requestLines ?? []).map { "request: \($0)" }
            xml += "      <system-out>" + Self.escape(lines.joined(separator: "\n")) + "</system-out>\n"
        }
        xml += "    </testcase>\n"
        return xml
    }

    /// Escapes text for XML attributes and content; drops characters XML 1.0 cannot hold (controls but tab,
    /// newline and return; U+FFFE, U+FFFF). Byte by byte over the UTF-8: every `testcase` of a run goes
    /// through here (a scalar at a time, it was most of the report's cost).
    package static func escape(_ text: String, attribute: Bool = false) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "&"): out += "&amp;".utf8
                case UInt8(ascii: "<"): out += "&lt;".utf8
                case UInt8(ascii: ">"): out += "&gt;".utf8
                case UInt8(ascii: "\""): out += "&quot;".utf8
                case UInt8(ascii: "'"): out += "&apos;".utf8
                case 0x09, 0x0A, 0x0D:
                    if attribute { out += "&#\(byte);".utf8 } else { out.append(byte) }
                case ..<0x20:
                    continue
                case 0xEF where index + 1 < bytes.count && bytes[index] == 0xBF && bytes[index + 1] & 0xFE == 0xBE:
                    // U+FFFE or U+FFFF (EF BF BE, EF BF BF).
                    index += 2
                default:
                    out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private func escape(_ text: String) -> String { Self.escape(text, attribute: true) }
}
