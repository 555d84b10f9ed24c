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
    private struct State {
        /// Finished scenarios' `testcase` elements as UTF-8, by their place in the plan: rendered as they
        /// finish so that their steps and logs need not be kept for the whole run (the counts and times are
        /// the run's tally).
        var finished: [Rendered?] = []
    }

    /// A finished scenario's `testcase`. When every step passed, its step lines (`✓ description`, which say
    /// nothing the plan does not) are left out, and written from the plan where they go when the report is:
    /// a run of thousands of passing scenarios keeps about 0.3 KB of each, not 0.7.
    private struct Rendered {
        var bytes: [UInt8]
        /// Where the passed steps' lines go in ``bytes``, when they were left out.
        var passedStepsAt: Int?
    }

    private let state = Mutex(State())
    /// The record the events are read into: its own, or one it shares (``SharedRunRecord``), which the
    /// caller applies the events to.
    private let source: SharedRunRecord
    private let ownsRecord: Bool
    /// Written in every testsuite's `<properties>` (where JUnit's schema and its readers — Jenkins,
    /// GitLab — look for them); none, no `<properties>` element.
    private let properties: [JUnitProperty]
    /// `--repeat`'s count: a failure names the repetition it happened on (`Failed on repetition 7 of 15: …`).
    private let repetitions: Int

    /// `record`: one the caller applies the events to for this reporter and others (``SharedRunRecord``);
    /// else the reporter keeps its own.
    package init(properties: [JUnitProperty] = [], repetitions: Int = 1, record: SharedRunRecord? = nil) {
        self.properties = properties
        self.repetitions = repetitions
        source = record ?? SharedRunRecord()
        ownsRecord = record == nil
    }

    /// Consumes one event. A finished scenario's `testcase` is rendered at once, from the record as it is
    /// (under the lock: one reporter's events come one at a time), and the scenario forgotten.
    package func handle(_ event: RunEvent) {
        // Events the record keeps nothing of: not even the lock.
        if RunRecord.keepsNothing(of: event) { return }
        // The record's lock, then this reporter's: always in that order.
        source.record.withLock { record in
            if ownsRecord { record.apply(event) }
            state.withLock { state in
                switch event {
                case .runStarted(let plan):
                    state.finished = Array(repeating: nil, count: plan.scenarios.count)
                case .scenarioFinished(let id, _, _):
                    guard let place = record.place(of: id), state.finished.indices.contains(place),
                        record.scenario(id)?.outcome != nil
                    else { return }
                    var xml = XMLBytes(capacity: 512)
                    let passedStepsAt = testcase(
                        record.plan.scenarios[place],
                        record: record,
                        to: &xml,
                        leavingOutPassedSteps: true
                    )
                    state.finished[place] = Rendered(bytes: xml.bytes, passedStepsAt: passedStepsAt)
                    if ownsRecord { record.forget(id) }
                default:
                    break
                }
            }
        }
    }

    /// How many bytes the report keeps of the scenarios that finished: what a long run's memory grows by.
    package var keptBytes: Int {
        state.withLock { $0.finished.reduce(0) { $0 + ($1?.bytes.count ?? 0) } }
    }

    /// The report so far.
    package func xml() -> String {
        report().string
    }

    /// Writes the report whole or not at all, or through a device, FIFO or link (``FileWriteError/write(_:to:)``).
    package func write(to url: URL) throws(FileWriteError) {
        try FileWriteError.write(Data(report().bytes), to: url)
    }

    /// The report so far: a `testsuite` per file, in the plan's order, each scenario's end read once.
    private func report() -> XMLBytes {
        let (record, finished) = source.record.withLock { record in (record, state.withLock { $0.finished }) }
        struct Suite {
            var file: String
            /// Places in the plan.
            var scenarios: [Int] = []
            var failures = 0
            var skipped = 0
            var time = Duration.zero
        }
        var suites: [Suite] = []
        var suiteOfFile: [String: Int] = [:]
        for (place, scenario) in record.plan.scenarios.enumerated() {
            let index =
                suiteOfFile[scenario.id.file]
                ?? {
                    suites.append(Suite(file: scenario.id.file))
                    suiteOfFile[scenario.id.file] = suites.count - 1
                    return suites.count - 1
                }()
            suites[index].scenarios.append(place)
            let end = record.tally.end(at: place)
            switch end?.outcome {
            case .failed?: suites[index].failures += 1
            case .skipped?, nil: suites[index].skipped += 1
            case .passed?: break
            }
            suites[index].time += end?.duration ?? .zero
        }

        var xml = XMLBytes(capacity: 256 + finished.reduce(0) { $0 + 2 * ($1?.bytes.count ?? 0) })
        xml.append(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        xml.append("\n")
        xml.append(#"<testsuites name="scenario-run" tests=""#)
        xml.append(record.plan.scenarios.count)
        xml.append(#"" failures=""#)
        xml.append(suites.reduce(0) { $0 + $1.failures })
        xml.append(#"" skipped=""#)
        xml.append(suites.reduce(0) { $0 + $1.skipped })
        xml.append(#"" time=""#)
        xml.append(unescaped: (record.summary?.duration ?? suites.reduce(.zero) { $0 + $1.time }).fixedSeconds)
        xml.append("\">\n")
        for suite in suites {
            xml.append(#"  <testsuite name=""#)
            xml.append(
                escaping: suite.scenarios.first.map { record.plan.scenarios[$0].feature } ?? suite.file,
                attribute: true
            )
            xml.append(#"" file=""#)
            xml.append(escaping: suite.file, attribute: true)
            xml.append(#"" tests=""#)
            xml.append(suite.scenarios.count)
            xml.append(#"" failures=""#)
            xml.append(suite.failures)
            xml.append(#"" skipped=""#)
            xml.append(suite.skipped)
            xml.append(#"" time=""#)
            xml.append(unescaped: suite.time.fixedSeconds)
            xml.append("\">\n")
            if !properties.isEmpty {
                xml.append("    <properties>\n")
                for property in properties { xml.append(unescaped: property.xml) }
                xml.append("    </properties>\n")
            }
            for place in suite.scenarios {
                if finished.indices.contains(place), let rendered = finished[place] {
                    guard let at = rendered.passedStepsAt else {
                        xml.append(bytes: rendered.bytes[...])
                        continue
                    }
                    xml.append(bytes: rendered.bytes[..<at])
                    for (index, step) in record.plan.scenarios[place].steps.enumerated() {
                        if index > 0 { xml.append("\n") }
                        Self.passedStep(step.description, to: &xml)
                    }
                    xml.append(bytes: rendered.bytes[at...])
                } else {
                    testcase(record.plan.scenarios[place], record: record, to: &xml)
                }
            }
            xml.append("  </testsuite>\n")
        }
        xml.append("</testsuites>\n")
        return xml
    }

    /// The scenario's `testcase` element, written as bytes (``XMLBytes``): every scenario of a run is rendered
    /// here, and a `String` for each piece of it was most of the report's cost.
    /// With `leavingOutPassedSteps`, the step lines of a scenario whose every step passed are not written:
    /// the place they go is returned (``Rendered``).
    @discardableResult
    private func testcase(
        _ scenario: RunPlan.PlannedScenario,
        record: RunRecord,
        to xml: inout XMLBytes,
        leavingOutPassedSteps: Bool = false
    ) -> Int? {
        let entry = record.scenario(scenario.id)
        xml.append(#"    <testcase classname=""#)
        xml.append(escaping: scenario.feature, attribute: true)
        xml.append(#"" name=""#)
        xml.append(escaping: scenario.id.name, attribute: true)
        xml.append(#"" file=""#)
        xml.append(escaping: scenario.location.file, attribute: true)
        xml.append(#"" line=""#)
        xml.append(scenario.location.line)
        xml.append(#"" time=""#)
        xml.append(unescaped: (entry?.duration ?? .zero).fixedSeconds)
        xml.append("\">\n")
        /// A failed try's element: its reason (after the repetition it happened on when there are several) as
        /// the message, the step and its `FILE:LINE` as the text.
        func failure(_ element: StaticString, _ end: StaticString, step index: Int, reason: String, repetition: Int) {
            xml.append(element)
            xml.append(
                escaping: repetitions > 1 ? "Failed on repetition \(repetition) of \(repetitions): \(reason)" : reason,
                attribute: true
            )
            xml.append("\">")
            let step = scenario.steps.indices.contains(index) ? scenario.steps[index] : nil
            xml.append(escaping: step?.description ?? "step \(index + 1)")
            if let location = step?.location { xml.append(escaping: " at \(location.fileAndLine)") }
            xml.append(end)
        }
        // Earlier failed tries (`--retries`), as Maven Surefire writes reruns: `flakyFailure` on a
        // testcase that passed in the end, `rerunFailure` on one that failed.
        let earlier = entry?.failedTries ?? []
        switch entry?.outcome {
        case .failed(let index, let reason)?:
            failure(
                #"      <failure message=""#,
                "</failure>\n",
                step: index,
                reason: reason,
                repetition: entry?.repetition ?? 1
            )
            for earlierTry in earlier {
                failure(
                    #"      <rerunFailure message=""#,
                    "</rerunFailure>\n",
                    step: earlierTry.step,
                    reason: earlierTry.reason,
                    repetition: earlierTry.repetition
                )
            }
        case .skipped?, nil:
            // `skip:` in the file says why; a scenario skipped by fail-fast or a cancel has no reason.
            if let reason = scenario.skip {
                xml.append(#"      <skipped message=""#)
                xml.append(escaping: reason, attribute: true)
                xml.append("\"/>\n")
            } else {
                xml.append("      <skipped/>\n")
            }
        case .passed?:
            for earlierTry in earlier {
                failure(
                    #"      <flakyFailure message=""#,
                    "</flakyFailure>\n",
                    step: earlierTry.step,
                    reason: earlierTry.reason,
                    repetition: earlierTry.repetition
                )
            }
        }
        var passedStepsAt: Int?
        if let entry, entry.outcome != .skipped {
            xml.append("      <system-out>")
            var first = true
            func line(_ start: StaticString) {
                if !first { xml.append("\n") }
                first = false
                xml.append(start)
            }
            if leavingOutPassedSteps, record.allStepsPassed(scenario.id) {
                // Left out: the report writes them here from the plan.
                passedStepsAt = xml.bytes.count
                first = false
            } else {
                for step in record.stepLines(scenario.id) {
                    switch step.outcome {
                    case .failed(let reason, _)?:
                        line("✗ ")
                        xml.append(escaping: step.description)
                        xml.append(": ")
                        xml.append(escaping: reason)
                    case .warned(let reason)?:
                        line("⚠ ")
                        xml.append(escaping: step.description)
                        xml.append(": ")
                        xml.append(escaping: reason)
                    case .passed?:
                        line("")
                        Self.passedStep(step.description, to: &xml)
                    case .skipped?, nil:
                        line("- ")
                        xml.append(escaping: step.description)
                        xml.append(" (skipped)")
                    }
                }
            }
            for log in entry.logs {
                line("log: ")
                xml.append(escaping: log)
            }
            for request in entry.requests {
                line("request: ")
                request.appendLine(to: &xml)
            }
            if entry.droppedRequests > 0 {
                line("request: ")
                xml.append(unescaped: entry.droppedRequestsLine)
            }
            xml.append("</system-out>\n")
        }
        xml.append("    </testcase>\n")
        return passedStepsAt
    }

    /// A passed step's line in `system-out`: `✓ description` (also written from the plan for a passing
    /// scenario kept without its step lines).
    private static func passedStep(_ description: String, to xml: inout XMLBytes) {
        xml.append("✓ ")
        xml.append(escaping: description)
    }

    /// Escapes text for XML attributes and content (``XMLBytes/append(escaping:attribute:)``).
    package static func escape(_ text: String, attribute: Bool = false) -> String {
        var xml = XMLBytes()
        xml.append(escaping: text, attribute: attribute)
        return xml.string
    }

    private func escape(_ text: String) -> String { Self.escape(text, attribute: true) }
}
