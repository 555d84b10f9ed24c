import Diagnostics
import Foundation
import Scenarios
import TestSupport
import Testing

struct ReporterTests {
    static let posting = ScenarioID(file: "Scenarios/reviews.yml", name: "Posting a review")
    static let rejected = ScenarioID(file: "Scenarios/reviews.yml", name: "Posting a review the server <rejects>")
    static let listing = ScenarioID(file: "Scenarios/restaurants.yml", name: "Listing restaurants")

    static func location(_ file: String, _ line: Int) -> Diagnostics.SourceLocation {
        SourceLocation(file: file, line: line, column: 9)
    }

    static func planned(_ id: ScenarioID, feature: String, line: Int, _ steps: [String]) -> RunPlan.PlannedScenario {
        var all: [RunPlan.PlannedStep] = [
            .init(description: "set up the test environment", phase: .setUp, location: nil)
        ]
        for (offset, step) in steps.enumerated() {
            all.append(.init(description: step, phase: .steps, location: location(id.file, line + 2 + offset)))
        }
        all.append(.init(description: "tear down the test environment", phase: .tearDown, location: nil))
        return .init(id: id, feature: feature, tags: [], location: location(id.file, line), steps: .init(all))
    }

    static let events: [RunEvent] = {
        let ms = { Duration.milliseconds($0) }
        let plan = RunPlan(scenarios: [
            planned(posting, feature: "Reviews", line: 4, ["stub route {class: Review, method: POST, to: /review}"]),
            planned(
                rejected,
                feature: "Reviews",
                line: 8,
                [
                    "stub route {class: Review, method: POST, to: /422}", "expect response {status: 201}",
                    "expect entities {entity: Review, count: 1}",
                ]
            ),
            planned(listing, feature: "Restaurants", line: 3, ["get objects {path: /restaurants}"]),
        ])
        var events: [RunEvent] = [.runStarted(plan)]
        func finishSteps(_ id: ScenarioID, _ outcomes: [StepOutcome]) {
            for (index, outcome) in outcomes.enumerated() {
                let phase: StepPhase = index == 0 ? .setUp : index == outcomes.count - 1 ? .tearDown : .steps
                events.append(.stepStarted(id, step: index, phase: phase))
                events.append(.stepFinished(id, step: index, phase: phase, outcome: outcome, duration: ms(1)))
            }
        }
        events.append(.scenarioStarted(posting))
        finishSteps(posting, [.passed, .passed, .passed])
        events.append(.scenarioFinished(posting, outcome: .passed, duration: ms(12)))
        events.append(.scenarioStarted(rejected))
        events.append(.log(rejected, "POST /422 → 422"))
        finishSteps(
            rejected,
            [
                .passed, .passed,
                .failed(reason: "Expected status 201, got 422 & \"Invalid\"", location: location(rejected.file, 11)),
                .skipped, .passed,
            ]
        )
        events.append(
            .scenarioFinished(
                rejected,
                outcome: .failed(step: 2, reason: "Expected status 201, got 422 & \"Invalid\""),
                duration: ms(31)
            )
        )
        events.append(.scenarioFinished(listing, outcome: .skipped, duration: .zero))
        events.append(.runFinished(RunSummary(passed: 1, failed: 1, skipped: 1, duration: ms(45))))
        return events
    }()

    func plain(verbose: Bool = false, colors: Bool = false) -> String {
        let output = Recorder<String>()
        let reporter = PlainReporter(verbose: verbose, colors: colors) { output.append($0) }
        for event in Self.events { reporter.handle(event) }
        return output.all.joined()
    }

    /// The plain and JUnit reporters reading one record that each event is applied to once report what each
    /// reports with a record of its own: every outcome, log, retry and request.
    @Test func reportersSharingOneRecordReportWhatEachReportsAlone() {
        let ms = { Duration.milliseconds($0) }
        var events = Self.events
        let last = events.removeLast()
        // A scenario that failed its first try and passed its second, with a request log.
        let flaky = ScenarioID(file: "Scenarios/restaurants.yml", name: "Flaky")
        if case .runStarted(var plan) = events[0] {
            plan.scenarios.append(Self.planned(flaky, feature: "Restaurants", line: 9, ["wait {seconds: 1}"]))
            events[0] = .runStarted(plan)
        }
        events.append(.scenarioStarted(flaky))
        events.append(.stepFinished(flaky, step: 0, phase: .setUp, outcome: .passed, duration: ms(1)))
        events.append(
            .stepFinished(
                flaky,
                step: 1,
                phase: .steps,
                outcome: .failed(reason: "late", location: nil),
                duration: ms(2)
            )
        )
        events.append(.attemptFinished(flaky, attempt: 1, outcome: .failed(step: 1, reason: "late"), duration: ms(3)))
        events.append(.scenarioStarted(flaky))
        events.append(.log(flaky, "GET /restaurants → 200"))
        events.append(
            .requestLog(
                flaky,
                [LoggedRequest(method: "GET", target: "/restaurants", status: 200, route: nil)],
                dropped: 0
            )
        )
        for step in 0..<3 {
            events.append(
                .stepFinished(
                    flaky,
                    step: step,
                    phase: step == 0 ? .setUp : step == 1 ? .steps : .tearDown,
                    outcome: .passed,
                    duration: ms(1)
                )
            )
        }
        events.append(.scenarioFinished(flaky, outcome: .passed, duration: ms(4)))
        events.append(last)
        for verbose in [false, true] {
            let alone = Recorder<String>()
            let plain = PlainReporter(verbose: verbose) { alone.append($0) }
            let junit = JUnitReporter(repetitions: 2)
            let shared = SharedRunRecord()
            let together = Recorder<String>()
            let sharingPlain = PlainReporter(verbose: verbose, record: shared) { together.append($0) }
            let sharingJUnit = JUnitReporter(repetitions: 2, record: shared)
            for event in events {
                plain.handle(event)
                junit.handle(event)
                shared.apply(event)
                sharingPlain.handle(event)
                sharingJUnit.handle(event)
                shared.handled(event)
            }
            #expect(together.all.joined() == alone.all.joined())
            #expect(together.all.joined().contains("FLAKY 1/2 Flaky"))
            #expect(sharingJUnit.xml() == junit.xml())
            #expect(sharingJUnit.xml().contains("GET /restaurants → 200"))
        }
    }

    @Test func plainReportShowsTheStepsOfFailingScenarios() {
        #expect(
            plain() == """
                ✓ Posting a review (0.012 s)
                ✗ Posting a review the server <rejects> (0.031 s)
                    ✓ set up the test environment
                    ✓ stub route {class: Review, method: POST, to: /422}
                    ✗ expect response {status: 201}
                      Expected status 201, got 422 & "Invalid"
                      at Scenarios/reviews.yml:11
                    - expect entities {entity: Review, count: 1} (skipped)
                    ✓ tear down the test environment
                    log: POST /422 → 422
                - Listing restaurants (skipped)

                1 passed, 1 failed, 1 skipped

                """
        )
    }

    /// Issue 27: a line break in a failure reason or a log started a column-0 line that could forge a
    /// pass or the summary; every further line is indented under its step now.
    @Test func aReasonOrLogCannotStartALineOfItsOwn() {
        let id = ScenarioID(file: "Scenarios/x.yml", name: "Forger")
        let forged = "no\n✓ Forger (0.001 s)\n\n99 passed, 0 failed"
        let output = Recorder<String>()
        let reporter = PlainReporter(verbose: false, colors: false) { output.append($0) }
        for event: RunEvent in [
            .runStarted(RunPlan(scenarios: [Self.planned(id, feature: "X", line: 2, ["fail"])])),
            .scenarioStarted(id),
            .log(id, "line\n1 passed, 0 failed"),
            .stepStarted(id, step: 0, phase: .setUp),
            .stepFinished(id, step: 0, phase: .setUp, outcome: .passed, duration: .zero),
            .stepStarted(id, step: 1, phase: .steps),
            .stepFinished(
                id,
                step: 1,
                phase: .steps,
                outcome: .failed(reason: forged, location: nil),
                duration: .zero
            ),
            .scenarioFinished(id, outcome: .failed(step: 1, reason: forged), duration: .milliseconds(1)),
            .runFinished(RunSummary(passed: 0, failed: 1, skipped: 0, duration: .milliseconds(1))),
        ] {
            reporter.handle(event)
        }
        let lines = output.all.joined().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("✓") || $0.hasPrefix("99") || $0.hasPrefix("1 passed") })
        #expect(lines.contains("      ✓ Forger (0.001 s)"))
        #expect(lines.contains("         1 passed, 0 failed"))
        #expect(lines.last(where: { !$0.isEmpty }) == "0 passed, 1 failed")
    }

    @Test func verbosePlainReportShowsEveryStep() {
        #expect(
            plain(verbose: true).hasPrefix(
                """
                ✓ Posting a review (0.012 s)
                    ✓ set up the test environment
                    ✓ stub route {class: Review, method: POST, to: /review}
                    ✓ tear down the test environment
                ✗ Posting a review the server <rejects> (0.031 s)

                """
            )
        )
    }

    @Test func coloursOnlyWhenAsked() {
        #expect(!plain().contains("\u{1B}["))
        #expect(plain(colors: true).hasPrefix("\u{1B}[32m✓\u{1B}[0m Posting a review (0.012 s)\n"))
    }

    @Test func summaryLineOmitsSkippedWhenNone() {
        let output = Recorder<String>()
        let reporter = PlainReporter { output.append($0) }
        reporter.handle(.runFinished(RunSummary(passed: 3, failed: 0)))
        #expect(output.all.joined() == "\n3 passed, 0 failed\n")
        reporter.handle(.runFinished(RunSummary(passed: 0, failed: 0, skipped: 2, cancelled: true)))
        #expect(output.all.last == "\nRun cancelled.\n0 passed, 0 failed, 2 skipped\n")
    }

    /// Each testcase says where it is written and, in `system-out`, the request log of a failed one (a
    /// passed testcase's log, sent when the run also writes the HTML page, is left out).
    @Test func junitReport() {
        let junit = JUnitReporter()
        for event in Self.events {
            if case .scenarioFinished(Self.posting, _, _) = event {
                let passed = LoggedRequest(
                    method: "POST",
                    target: "/review",
                    status: 201,
                    route: "Fixtures/server.yml:3"
                )
                junit.handle(.requestLog(Self.posting, [passed], dropped: 1))
            }
            if case .scenarioFinished(Self.rejected, _, _) = event {
                let sent = LoggedRequest(
                    method: "POST",
                    target: "/422?x=<1>",
                    status: 422,
                    route: "Fixtures/server.yml:7"
                )
                let broken = LoggedRequest(method: "GET", target: "/slow", status: nil, route: nil)
                junit.handle(.requestLog(Self.rejected, [sent, broken], dropped: 3))
            }
            junit.handle(event)
        }
        #expect(
            junit.xml() == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="scenario-run" tests="3" failures="1" skipped="1" time="0.045">
                  <testsuite name="Reviews" file="Scenarios/reviews.yml" tests="2" failures="1" skipped="0" time="0.043">
                    <testcase classname="Reviews" name="Posting a review" file="Scenarios/reviews.yml" line="4" time="0.012">
                      <system-out>✓ set up the test environment
                ✓ stub route {class: Review, method: POST, to: /review}
                ✓ tear down the test environment
                request: POST /review → 201 (Fixtures/server.yml:3)
                request: … and 1 more request, not logged</system-out>
                    </testcase>
                    <testcase classname="Reviews" name="Posting a review the server &lt;rejects&gt;" file="Scenarios/reviews.yml" line="8" time="0.031">
                      <failure message="Expected status 201, got 422 &amp; &quot;Invalid&quot;">expect response {status: 201} at Scenarios/reviews.yml:11</failure>
                      <system-out>✓ set up the test environment
                ✓ stub route {class: Review, method: POST, to: /422}
                ✗ expect response {status: 201}: Expected status 201, got 422 &amp; &quot;Invalid&quot;
                - expect entities {entity: Review, count: 1} (skipped)
                ✓ tear down the test environment
                log: POST /422 → 422
                request: POST /422?x=&lt;1&gt; → 422 (Fixtures/server.yml:7)
                request: GET /slow → no answer (no route)
                request: … and 3 more requests, not logged</system-out>
                    </testcase>
                  </testsuite>
                  <testsuite name="Restaurants" file="Scenarios/restaurants.yml" tests="1" failures="0" skipped="1" time="0.000">
                    <testcase classname="Restaurants" name="Listing restaurants" file="Scenarios/restaurants.yml" line="3" time="0.000">
                      <skipped/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """
        )
    }

    @Test func junitIsWrittenAtomicallyAndParses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("report.xml")
        let junit = JUnitReporter()
        for event in Self.events { junit.handle(event) }
        try junit.write(to: url)
        try junit.write(to: url)  // replaces the existing file
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.xml"])
        let data = try Data(contentsOf: url)
        #expect(String(decoding: data, as: UTF8.self) == junit.xml())
        #if canImport(FoundationXML)
            // XML parsing is not part of this test on platforms without FoundationXML.
        #endif
    }

    /// A scenario whose every step passed is kept without its step lines, which the report writes from the
    /// plan: a long run keeps little of each passing scenario, and the report says the same.
    @Test func aPassingScenarioIsKeptWithoutItsStepLines() {
        let id = ScenarioID(file: "a.yml", name: "A")
        let steps = (1...20).map {
            RunPlan.PlannedStep(description: "step \($0) with a long & plain description", phase: .steps, location: nil)
        }
        let plan = RunPlan(scenarios: [
            .init(id: id, feature: "A", tags: [], location: Self.location("a.yml", 1), steps: .init(steps))
        ])
        let junit = JUnitReporter()
        junit.handle(.runStarted(plan))
        junit.handle(.scenarioStarted(id))
        for index in steps.indices {
            junit.handle(.stepFinished(id, step: index, phase: .steps, outcome: .passed, duration: .zero))
        }
        junit.handle(.log(id, "GET /a → 200"))
        junit.handle(.scenarioFinished(id, outcome: .passed, duration: .zero))
        #expect(junit.keptBytes < 300, "the step lines alone are about 900 bytes")
        let xml = junit.xml()
        #expect(xml.contains("<system-out>✓ step 1 with a long &amp; plain description\n✓ step 2 with"))
        #expect(xml.contains("✓ step 20 with a long &amp; plain description\nlog: GET /a → 200</system-out>"))
    }

    /// A passing scenario is written from the plan only when every planned step was heard of as passed:
    /// one whose last step's end never came is written as recorded, that step shown as not run.
    @Test func aPassingScenarioWithoutEveryStepsEndIsWrittenAsRecorded() {
        let id = ScenarioID(file: "a.yml", name: "A")
        let steps = (1...3).map { RunPlan.PlannedStep(description: "step \($0)", phase: .steps, location: nil) }
        let plan = RunPlan(scenarios: [
            .init(id: id, feature: "A", tags: [], location: Self.location("a.yml", 1), steps: .init(steps))
        ])
        let junit = JUnitReporter()
        junit.handle(.runStarted(plan))
        junit.handle(.scenarioStarted(id))
        for index in 0..<2 {
            junit.handle(.stepFinished(id, step: index, phase: .steps, outcome: .passed, duration: .zero))
        }
        junit.handle(.scenarioFinished(id, outcome: .passed, duration: .zero))
        let xml = junit.xml()
        #expect(xml.contains("<system-out>✓ step 1\n✓ step 2\n- step 3 (skipped)</system-out>"), "\(xml)")
    }

    @Test func failureMessagesKeepLineBreaksAsCharacterReferences() {
        let id = ScenarioID(file: "a.yml", name: "A")
        let plan = RunPlan(scenarios: [
            .init(
                id: id,
                feature: "A",
                tags: [],
                location: Self.location("a.yml", 1),
                steps: [.init(description: "x", phase: .steps, location: nil)]
            )
        ])
        let junit = JUnitReporter()
        junit.handle(.runStarted(plan))
        junit.handle(.scenarioStarted(id))
        junit.handle(
            .stepFinished(
                id,
                step: 0,
                phase: .steps,
                outcome: .failed(reason: "line one\nline\u{1}two", location: nil),
                duration: .zero
            )
        )
        junit.handle(
            .scenarioFinished(id, outcome: .failed(step: 0, reason: "line one\nline\u{1}two"), duration: .zero)
        )
        let xml = junit.xml()
        #expect(xml.contains(#"<failure message="line one&#10;linetwo">x</failure>"#))
        #expect(xml.contains("<system-out>✗ x: line one\nlinetwo</system-out>"))
    }

    /// The escaper works on UTF-8 bytes: the five markup characters become entities, tab, newline and
    /// return are kept in content and written as references in attributes, other controls and U+FFFE, U+FFFF
    /// are dropped, and every other character (U+FFFD, whose bytes are next to theirs, too) is kept.
    @Test func junitEscapesByteByByte() {
        let text = "a&b<c>d\"e'f\tg\nh\ri\u{0}j\u{1F}k é✓\u{FFFD}\u{FFFE}\u{FFFF}🙂 end"
        #expect(
            JUnitReporter.escape(text)
                == "a&amp;b&lt;c&gt;d&quot;e&apos;f\tg\nh\rijk é✓\u{FFFD}🙂 end"
        )
        #expect(
            JUnitReporter.escape(text, attribute: true)
                == "a&amp;b&lt;c&gt;d&quot;e&apos;f&#9;g&#10;h&#13;ijk é✓\u{FFFD}🙂 end"
        )
        #expect(JUnitReporter.escape("") == "")
        #expect(JUnitReporter.escape("\u{FFFF}") == "")
    }
}
