import Diagnostics
import Foundation
import TestSupport
import Testing

@testable import Scenarios

/// When a failing expectation gives up before its timeout (SPEC §13), decided on the virtual clock.
struct SettleTests {
    let harness = RunHarness()
    typealias H = RunHarness

    private func expectation(_ reason: String = "0 Message object(s), expected 1") -> Step {
        H.step("expect entities Message", line: 3) { _ in .wait(reason) }.givingUpWhenSettled()
    }

    private func failure(_ events: [RunEvent]) -> String? {
        events.scenarioOutcomes.compactMap { outcome -> String? in
            if case .failed(_, let reason) = outcome { return reason }
            return nil
        }.first
    }

    @Test func aQuietFailingExpectationGivesUpAfterTheSettleTimeAndSaysSo() async throws {
        let runner = try harness.runner {
            $0.defaultSetUp = []; $0.defaultTearDown = []
            $0.stepTimeout = .seconds(10)
            $0.settleTime = .milliseconds(500)
        }
        let events = await harness.run(runner, [H.scenario("A", [expectation()])])
        #expect(
            failure(events)
                == "0 Message object(s), expected 1 (gave up after 0.5 s, before the 10.0 s timeout: nothing was "
                + "running and nothing changed for 0.5 s)"
        )
        #expect(harness.clock.now.offset == .milliseconds(500))
    }

    @Test func busyWorkKeepsItWaitingUntilSettleTimeAfterTheWorkEnded() async throws {
        let busyUntil = Duration.milliseconds(1500)
        let clock = harness.clock
        let runner = try harness.runner(
            {
                $0.defaultSetUp = []; $0.defaultTearDown = []
                $0.stepTimeout = .seconds(10)
                $0.settleTime = .milliseconds(500)
            },
            prepare: { context in
                context.setActivityProbe { clock.now.offset < busyUntil ? "idling resource 'outbox'" : nil }
            }
        )
        let events = await harness.run(runner, [H.scenario("A", [expectation()])])
        // Busy at 1.25 s (the last reading that saw work), quiet from the reading at 1.5 s: gives up at 2.0 s.
        #expect(harness.clock.now.offset == .milliseconds(2000))
        #expect(failure(events)?.contains("gave up after 2.0 s") == true)
        let waits = events.compactMap { event -> String? in
            if case .stepWaiting(_, _, let reason, _) = event { return reason }
            return nil
        }
        #expect(waits.first == "0 Message object(s), expected 1 (waiting on idling resource 'outbox')")
    }

    @Test func aChangeStartsTheSettleTimeAgain() async throws {
        let contexts = Recorder<ScenarioContext>()
        let runner = try harness.runner(
            {
                $0.defaultSetUp = []; $0.defaultTearDown = []
                $0.stepTimeout = .seconds(10)
                $0.settleTime = .milliseconds(500)
            },
            prepare: { contexts.append($0) }
        )
        let clock = harness.clock
        let signalled = Recorder<Bool>()
        let events = await harness.run(runner, [H.scenario("A", [expectation()])]) { event in
            // One change at 0.25 s (say, a request finished): quiet counts from the attempt after it.
            if case .stepWaiting = event, clock.now.offset == .milliseconds(250), signalled.all.isEmpty {
                signalled.append(true)
                contexts.all.first?.signalChange()
            }
        }
        // Without the change it gives up at 0.5 s (the test above); the change puts that off.
        #expect(harness.clock.now.offset > .milliseconds(500))
        #expect(failure(events)?.contains("nothing changed for 0.5 s)") == true)
    }

    @Test func settleTimeOffWaitsOutTheTimeout() async throws {
        let runner = try harness.runner {
            $0.defaultSetUp = []; $0.defaultTearDown = []
            $0.settleTime = nil
        }
        let events = await harness.run(runner, [H.scenario("A", [expectation()])])
        #expect(failure(events) == "Timed out after 1.0 s waiting: 0 Message object(s), expected 1")
        #expect(harness.clock.now.offset == .seconds(1))
    }

    @Test func aStepThatDoesNotSettleWaitsOutTheTimeout() async throws {
        let runner = try harness.runner {
            $0.defaultSetUp = []; $0.defaultTearDown = []
            $0.settleTime = .milliseconds(250)
        }
        let step = H.step("expect reachability", line: 3) { _ in .wait("Reachability is 'unknown'") }
        let events = await harness.run(runner, [H.scenario("A", [step])])
        #expect(failure(events) == "Timed out after 1.0 s waiting: Reachability is 'unknown'")
    }

    @Test func theTimeoutReasonNamesWhatWasStillRunning() async throws {
        let runner = try harness.runner(
            {
                $0.defaultSetUp = []; $0.defaultTearDown = []
            },
            prepare: { $0.setActivityProbe { "1 request queued or in flight" } }
        )
        let events = await harness.run(runner, [H.scenario("A", [expectation("No response")])])
        #expect(
            failure(events)
                == "Timed out after 1.0 s waiting: No response (still running: 1 request queued or in flight)"
        )
    }

    // MARK: The decision alone

    @Test func theWatchCountsQuietFromTheStepsStartAndResetsOnBusyOrChange() {
        var watch = SettleWatch(settleTime: .milliseconds(500), generation: 7)
        #expect(watch.isOn)
        watch.attempted(at: .milliseconds(100), busy: false, generationBefore: 7, generationAfter: 7)
        #expect(!watch.hasSettled(at: .milliseconds(400)))
        #expect(watch.untilSettled(at: .milliseconds(400)) == .milliseconds(100))
        #expect(watch.hasSettled(at: .milliseconds(500)))
        watch.attempted(at: .milliseconds(600), busy: true, generationBefore: 7, generationAfter: 7)
        #expect(watch.quietSince == nil)
        #expect(!watch.hasSettled(at: .seconds(100)))
        watch.attempted(at: .milliseconds(700), busy: false, generationBefore: 7, generationAfter: 7)
        #expect(!watch.hasSettled(at: .milliseconds(1100)))
        #expect(watch.hasSettled(at: .milliseconds(1200)))
        // A change between attempts (generation 7 → 8) restarts it.
        watch.attempted(at: .milliseconds(1200), busy: false, generationBefore: 8, generationAfter: 8)
        #expect(watch.quietSince == .milliseconds(1200))
        // A change during the attempt too.
        watch.attempted(at: .milliseconds(1300), busy: false, generationBefore: 8, generationAfter: 9)
        #expect(watch.quietSince == .milliseconds(1300))
        watch.attempted(at: .milliseconds(1400), busy: false, generationBefore: 9, generationAfter: 9)
        #expect(watch.quietSince == .milliseconds(1300))
    }

    @Test func anOffWatchNeverSettles() {
        let watch = SettleWatch(settleTime: nil, generation: 0)
        #expect(!watch.isOn)
        #expect(!watch.hasSettled(at: .seconds(86_400)))
    }

    @Test func settleTimeIsReadFromTheSettingsFile() throws {
        #expect(try RunSettings.load(yaml: "settle time: 0.25", file: "s.yml").settleTime == .milliseconds(250))
        #expect(try RunSettings.load(yaml: "settle time: off", file: "s.yml").settleTime == nil)
        #expect(try RunSettings.load(yaml: "settle time: 0", file: "s.yml").settleTime == .zero)
        #expect(RunSettings().settleTime == .milliseconds(500))
        #expect(throws: DiagnosticList.self) { try RunSettings.load(yaml: "settle time: of", file: "s.yml") }
        do {
            _ = try RunSettings.load(yaml: "settle time: of", file: "s.yml")
        } catch {
            #expect(
                error.diagnostics.first?.message
                    == "'settle time' must be a number of seconds or off, not 'of'. Did you mean 'off'?"
            )
        }
    }
}
