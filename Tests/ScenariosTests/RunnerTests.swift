import Diagnostics
import Foundation
import Scenarios
import TestSupport
import Testing

struct RunnerTests {
    let harness = RunHarness()
    typealias H = RunHarness

    @Test func waitingStepIsRetriedUntilItsTimeoutWithoutSleeping() async throws {
        let attempts = Recorder<Duration>()
        let scenario = H.scenario(
            "Waits",
            [
                H.step("expect something", line: 3) { context in
                    attempts.append(context.stepElapsed)
                    return .wait("Still nothing")
                }
            ]
        )
        let events = await harness.run(try harness.runner(), [scenario])
        let ms = { Duration.milliseconds($0) }
        #expect(attempts.all == [ms(0), ms(250), ms(500), ms(750), ms(1000)])
        let waits = events.compactMap { event -> Duration? in
            if case .stepWaiting(_, 1, "Still nothing", let waited) = event { return waited }
            return nil
        }
        #expect(waits == [ms(0), ms(250), ms(500), ms(750)])
        #expect(
            events.stepOutcomes == [
                .passed,
                .failed(
                    reason: "Timed out after 1.0 s waiting: Still nothing",
                    location: SourceLocation(file: "s.yml", line: 3, column: 9)
                ),
                .passed,
            ]
        )
        #expect(harness.clock.now.offset == .seconds(1))
    }

    @Test func theRequestsATrySentAreReportedOnceAfterItsTearDownDistinctAndBounded() async throws {
        let calls = Recorder<String>()
        let sent = (0..<(SentRequest.perScenario + 10)).map { SentRequest(method: "GET", path: "/items/\($0)") }
        let runner = try harness.runner(
            sentRequests: { context in
                calls.append(context.scenario.name)
                return context.scenario.name == "Quiet" ? [] : sent + sent
            }
        )
        let events = await harness.run(
            runner,
            [
                H.scenario("Busy", [H.step("succeed", line: 2) { _ in .success }]),
                H.scenario("Quiet", [H.step("succeed", line: 2) { _ in .success }]),
            ]
        )
        #expect(calls.all == ["Busy", "Quiet"])
        let reported = events.compactMap { event -> (String, [SentRequest])? in
            if case .requests(let id, let requests) = event { return (id.name, requests) }
            return nil
        }
        #expect(reported.map(\.0) == ["Busy"], "a try that sent nothing reports nothing")
        #expect(reported.first?.1 == Array(sent.prefix(SentRequest.perScenario)))
        let order = events.filter { $0.scenario?.name == "Busy" }.map { event -> String in
            switch event {
            case .requests: "requests"
            case .scenarioFinished: "finished"
            case .stepFinished(_, _, let phase, _, _): "\(phase)"
            default: ""
            }
        }.filter { !$0.isEmpty }
        #expect(order.suffix(3) == ["tearDown", "requests", "finished"], "\(order)")
    }

    @Test func stepTimeoutOverridesTheDefault() async throws {
        var step = H.step("slow", line: 3) { _ in .wait("Not yet") }
        step.timeout = .milliseconds(500)
        let events = await harness.run(
            try harness.runner {
                $0.defaultSetUp = []; $0.defaultTearDown = []
            },
            [H.scenario("A", [step])]
        )
        #expect(events.scenarioOutcomes == [.failed(step: 0, reason: "Timed out after 0.5 s waiting: Not yet")])
    }

    @Test func waitStepPassesOnceTheClockMoved() async throws {
        let events = await harness.run(
            try harness.runner {
                $0.defaultSetUp = []; $0.defaultTearDown = []
            },
            [H.scenario("A", [Step.wait(seconds: 0.5)])]
        )
        #expect(events.stepOutcomes == [.passed])
        #expect(harness.clock.now.offset == .milliseconds(500))
    }

    @Test func signalledChangeWakesAWaitingStepBeforeTheRetryInterval() async throws {
        let ready = Recorder<Bool>()
        let contexts = Recorder<ScenarioContext>()
        let scenario = H.scenario(
            "Wakes",
            [
                H.step("expect the notification", line: 3) { context in
                    contexts.append(context)
                    return ready.all.isEmpty ? .wait("No notification yet") : .success
                }
            ]
        )
        let runner = try harness.runner { $0.retryInterval = .seconds(5) }
        let events = await harness.run(runner, [scenario], advancing: false) { event in
            if case .stepWaiting = event {
                ready.append(true)
                contexts.all.first?.signalChange()
            }
        }
        #expect(events.stepOutcomes == [.passed, .passed, .passed])
        #expect(harness.clock.now.offset == .zero)
    }

    @Test func failureSkipsTheRestAndTearDownStillRuns() async throws {
        let scenario = H.scenario(
            "Fails",
            [
                Step.succeed("fine"), H.step("boom", line: 4) { _ in .failure("Boom") }, Step.succeed("never"),
            ]
        )
        let events = await harness.run(try harness.runner(), [scenario])
        #expect(
            events.stepOutcomes == [
                .passed, .passed, .failed(reason: "Boom", location: SourceLocation(file: "s.yml", line: 4, column: 9)),
                .skipped, .passed,
            ]
        )
        #expect(events.scenarioOutcomes == [.failed(step: 2, reason: "Boom")])
        #expect(harness.calls.all == ["set up", "tear down"])
    }

    @Test func setUpFailureSkipsTheScenarioSteps() async throws {
        var scenario = H.scenario("Set-up fails", [Step.succeed("never")])
        scenario.setUp = [Step.fail("No server")]
        let events = await harness.run(try harness.runner(), [scenario])
        #expect(events.stepOutcomes == [.passed, .failed(reason: "No server", location: nil), .skipped, .passed])
    }

    @Test func skipTearDownReportsTearDownSkipped() async throws {
        let runner = try harness.runner { $0 = $0.applying(environment: ["KIF_SKIP_TEAR_DOWN": "1"]) }
        let events = await harness.run(runner, [H.scenario("A", [Step.succeed("ok")])])
        #expect(events.stepOutcomes == [.passed, .passed, .skipped])
        #expect(events.scenarioOutcomes == [.passed])
        #expect(harness.calls.all == ["set up"])
    }

    @Test func tearDownFailureFailsThePassingScenario() async throws {
        var builder = StepRegistry.Builder()
        try builder.register(StepDefinition("clean up", summary: "") { _, _ in Step.fail("Store locked") })
        var settings = harness.settings
        settings.defaultSetUp = []
        settings.defaultTearDown = ["Clean  Up"]
        let runner = try ScenarioRunner(registry: builder.build(), settings: settings, clock: harness.clock)
        let events = await harness.run(runner, [H.scenario("A", [Step.succeed("ok")])])
        #expect(events.scenarioOutcomes == [.failed(step: 1, reason: "Store locked")])
        #expect(events.summary?.line == "0 passed, 1 failed")
    }

    @Test func thrownErrorsFailTheStepWithTheirDescription() async throws {
        let scenario = H.scenario(
            "Throws",
            [
                H.step("interpolate", line: 2) { context in
                    _ = try context.interpolate("/reviews/${review.id}")
                    return .success
                }
            ]
        )
        let events = await harness.run(try harness.runner(), [scenario])
        #expect(
            events.scenarioOutcomes == [
                .failed(step: 1, reason: "Unbound name 'review' in '${review.id}' of step 'interpolate'.")
            ]
        )
    }

    @Test func theRunGoesOnAfterAFailureUnlessFailFast() async throws {
        let scenarios = [
            H.scenario("One", [Step.fail("no")]), H.scenario("Two", [Step.succeed("ok")]),
            H.scenario("Three", [Step.succeed("ok")]),
        ]
        let goesOn = await harness.run(try harness.runner(), scenarios)
        #expect(goesOn.summary?.line == "2 passed, 1 failed")

        let stops = await harness.run(try harness.runner { $0.failFast = true }, scenarios)
        #expect(stops.scenarioOutcomes == [.failed(step: 1, reason: "no"), .skipped, .skipped])
        #expect(stops.summary?.line == "0 passed, 1 failed, 2 skipped")
        #expect(stops.summary?.cancelled == false)
    }

    @Test func cancelStillRunsTearDownAndSkipsTheRest() async throws {
        let scenarios = [
            H.scenario("Hangs", [H.step("wait forever", line: 2) { _ in .wait("Nothing ever happens") }]),
            H.scenario("Never", [Step.succeed("ok")]),
        ]
        let runner = try harness.runner { $0.stepTimeout = .seconds(3600) }
        let events = await harness.run(runner, scenarios, advancing: false) { event in
            if case .stepWaiting = event { runner.cancel() }
        }
        #expect(
            events.stepOutcomes == [
                .passed,
                .failed(
                    reason: "Run cancelled while waiting: Nothing ever happens",
                    location: SourceLocation(file: "s.yml", line: 2, column: 9)
                ),
                .passed,
            ]
        )
        #expect(harness.calls.all == ["set up", "tear down"])
        #expect(events.scenarioOutcomes.last == .skipped)
        #expect(events.summary == RunSummary(passed: 0, failed: 1, skipped: 1, duration: .zero, cancelled: true))
    }

    /// A cancel that comes during tear-down lets it run in full: a step after it still sees no cancellation
    /// and a step that waits still waits for its answer (tear-down runs in the run's own task, whose
    /// cancellation is held back until it ends); the scenarios after it are skipped.
    @Test func cancelDuringTearDownLetsItRunInFull() async throws {
        let box = Recorder<ScenarioRunner>()
        let attempts = Recorder<Int>()
        var scenario = H.scenario("Cancelled in tear-down", [Step.succeed("ok")])
        scenario.tearDown = [
            H.step("cancels", line: 4) { _ in
                box.all.first?.cancel()
                return .success
            }.returningPromptly(),
            H.step("sees no cancellation", line: 5) { _ in
                Task.isCancelled ? .failure("The tear-down's task was cancelled.") : .success
            }.returningPromptly(),
            H.step("waits once", line: 6) { _ in
                attempts.append(1)
                return attempts.all.count < 2 ? .wait("The first look") : .success
            }.returningPromptly(),
        ]
        let runner = try harness.runner()
        box.append(runner)
        let events = await harness.run(runner, [scenario, H.scenario("Never", [Step.succeed("ok")])])
        #expect(events.stepOutcomes == [.passed, .passed, .passed, .passed, .passed, .passed])
        #expect(attempts.all.count == 2)
        #expect(harness.calls.all == ["set up", "tear down"])
        #expect(events.scenarioOutcomes == [.passed, .skipped])
        #expect(events.summary?.cancelled == true)
    }

    /// Cancelled between two steps, a scenario fails at the step that did not run: a scenario with steps left
    /// unrun is never reported passed.
    @Test func cancelBetweenStepsFailsTheScenarioAtTheNextStep() async throws {
        let box = Recorder<ScenarioRunner>()
        let scenarios = [
            H.scenario(
                "Cancelled between steps",
                [
                    H.step("cancels", line: 2) { _ in
                        box.all.first?.cancel()
                        return .success
                    },
                    H.step("never runs", line: 3) { _ in .failure("ran") },
                    H.step("nor this", line: 4) { _ in .failure("ran") },
                ]
            ),
            H.scenario("Never", [Step.succeed("ok")]),
        ]
        let runner = try harness.runner()
        box.append(runner)
        let events = await harness.run(runner, scenarios)
        #expect(
            events.stepOutcomes == [
                .passed, .passed,
                .failed(
                    reason: "Run cancelled before this step.",
                    location: SourceLocation(file: "s.yml", line: 3, column: 9)
                ),
                .skipped, .passed,
            ]
        )
        #expect(events.scenarioOutcomes == [.failed(step: 2, reason: "Run cancelled before this step."), .skipped])
        #expect(events.summary == RunSummary(passed: 0, failed: 1, skipped: 1, duration: .zero, cancelled: true))
    }

    /// A cancel that comes before the run begins (a signal while the files loaded; a found bug: the run
    /// forgot it and ran everything) cancels that run: nothing runs. It does not carry into the next run
    /// (the live runner's re-run), which runs whole.
    @Test func aCancelBeforeTheRunCancelsItAndNotTheNext() async throws {
        let scenarios = [H.scenario("One", [Step.succeed("ok")]), H.scenario("Two", [Step.succeed("ok")])]
        let runner = try harness.runner()
        runner.cancel()
        let cancelled = await harness.run(runner, scenarios)
        #expect(cancelled.scenarioOutcomes == [.skipped, .skipped])
        #expect(cancelled.summary?.cancelled == true)
        #expect(harness.calls.all.isEmpty, "nothing ran: \(harness.calls.all)")
        let next = await harness.run(runner, scenarios)
        #expect(next.summary?.line == "2 passed, 0 failed")
        #expect(next.summary?.cancelled == false)
    }

    @Test func taskCancellationStillRunsTearDown() async throws {
        let started = Recorder<Bool>()
        let scenario = H.scenario(
            "Hangs",
            [
                H.step("wait forever", line: 2) { _ in
                    started.append(true)
                    return .wait("Nothing")
                }
            ]
        )
        let runner = try harness.runner { $0.stepTimeout = .seconds(3600) }
        let events = Recorder<RunEvent>()
        let task = Task { await runner.run([scenario]) { events.append($0) } }
        // Wait until the step has answered *wait* and the runner sleeps between retries (the step's
        // timeout is a sleeper of the same clock from the start), then cancel the caller's task.
        #expect(await eventually { started.all.count >= 1 })
        await harness.clock.waitForSleepers()
        task.cancel()
        let summary = await task.value
        #expect(summary.cancelled)
        #expect(started.all.count >= 1)
        #expect(harness.calls.all == ["set up", "tear down"])
        #expect(events.all.stepOutcomes.last == .passed)
    }

    @Test func scenariosArrivingThroughAStreamRunInOrderInOneRun() async throws {
        let runner = try harness.runner()
        let (arriving, continuation) = AsyncStream.makeStream(of: Scenario.self)
        let events = Recorder<RunEvent>()
        let run = Task { await runner.run(arriving: arriving) { events.append($0) } }
        continuation.yield(H.scenario("A", [H.step("a", line: 2) { _ in .success }]))
        continuation.yield(H.scenario("B", [H.step("b", line: 3) { _ in .failure("No") }]))
        continuation.finish()
        let summary = await run.value
        #expect(summary.passed == 1 && summary.failed == 1)
        #expect(events.all.first == .runStarted(RunPlan(scenarios: [])), "the plan is not known in advance")
        let finished = events.all.compactMap { event -> String? in
            if case .scenarioFinished(let id, _, _) = event { return id.name }
            return nil
        }
        #expect(finished == ["A", "B"])
        #expect(harness.calls.all == ["set up", "tear down", "set up", "tear down"])
    }

    @Test func cancellingARunOfArrivingScenariosEndsItWithoutWaitingForMore() async throws {
        let runner = try harness.runner()
        let (arriving, continuation) = AsyncStream.makeStream(of: Scenario.self)
        let events = Recorder<RunEvent>()
        let run = Task { await runner.run(arriving: arriving) { events.append($0) } }
        continuation.yield(H.scenario("A", [H.step("a", line: 2) { _ in .success }]))
        #expect(await eventually { events.all.contains { if case .scenarioFinished = $0 { true } else { false } } })
        runner.cancel()
        let summary = await run.value  // the stream is still open: cancellation alone ends the run
        #expect(summary == RunSummary(passed: 1, duration: summary.duration, cancelled: true))
        continuation.finish()
    }

    @Test func eventsComeInOrder() async throws {
        let scenario = H.scenario(
            "A",
            line: 7,
            [
                H.step("log", line: 8) { context in
                    context.log("hello")
                    return .success
                }
            ]
        )
        let events = await harness.run(try harness.runner(), [scenario])
        let id = ScenarioID(file: "s.yml", name: "A")
        let plan = RunPlan(scenarios: [
            .init(
                id: id,
                feature: "Feature",
                tags: [],
                location: SourceLocation(file: "s.yml", line: 7, column: 5),
                steps: [
                    .init(description: "set up the test environment", phase: .setUp, location: nil),
                    .init(
                        description: "log",
                        phase: .steps,
                        location: SourceLocation(file: "s.yml", line: 8, column: 9)
                    ),
                    .init(description: "tear down the test environment", phase: .tearDown, location: nil),
                ]
            )
        ])
        #expect(
            events == [
                .runStarted(plan),
                .scenarioStarted(id),
                .stepStarted(id, step: 0, phase: .setUp),
                .stepFinished(id, step: 0, phase: .setUp, outcome: .passed, duration: .zero),
                .stepStarted(id, step: 1, phase: .steps),
                .log(id, "hello"),
                .stepFinished(id, step: 1, phase: .steps, outcome: .passed, duration: .zero),
                .stepStarted(id, step: 2, phase: .tearDown),
                .stepFinished(id, step: 2, phase: .tearDown, outcome: .passed, duration: .zero),
                .scenarioFinished(id, outcome: .passed, duration: .zero),
                .runFinished(RunSummary(passed: 1, failed: 0, skipped: 0, duration: .zero, cancelled: false)),
            ]
        )
    }

    @Test func eventsRoundTripThroughJSON() async throws {
        let scenarios = [
            H.scenario("A", [H.step("waits", line: 2) { _ in .wait("Later") }]),
            H.scenario("B", [Step.succeed("ok")]),
        ]
        let events = await harness.run(try harness.runner { $0.failFast = true }, scenarios)
        #expect(events.count > 8)
        let data = try JSONEncoder().encode(events)
        let decoded = try JSONDecoder().decode([RunEvent].self, from: data)
        #expect(decoded == events)
    }

    @Test func unknownDefaultStepsAreRejected() throws {
        var settings = RunSettings()
        settings.defaultSetUp = ["set up the test enviroment"]
        let error = try #require(throws: DiagnosticList.self) {
            try ScenarioRunner(registry: harness.registry, settings: settings)
        }
        #expect(
            error.description == """
                default set up:1:1: error: Unknown step 'set up the test enviroment' in 'default set up'. \
                Did you mean 'set up the test environment' or 'tear down the test environment'?
                """
        )
    }

    @Test func defaultStepsFromTheSettingsFileAreReportedWhereTheyAreWritten() throws {
        let settings = try RunSettings.load(
            yaml: "step timeout: 5\ndefault tear down: [tear down the test environment, tidy up]\n",
            file: "scenario-run.yml"
        )
        let error = try #require(throws: DiagnosticList.self) {
            try ScenarioRunner(registry: harness.registry, settings: settings)
        }
        #expect(
            error.description == """
                scenario-run.yml:2:53: error: Unknown step 'tidy up' in 'default tear down'.
                default tear down: [tear down the test environment, tidy up]
                                                                    ^
                """
        )
    }

    @Test func prepareHangsStateOnEveryContext() async throws {
        enum Counter: ContextKey { typealias Value = Int }
        let seen = Recorder<Int?>()
        let runner = try harness.runner { _ in
        } prepare: { context in
            context[Counter.self] = 41
        }
        let scenario = H.scenario(
            "A",
            [
                H.step("read", line: 2) { context in
                    seen.append(context[Counter.self])
                    return .success
                }
            ]
        )
        _ = await harness.run(runner, [scenario])
        #expect(seen.all == [41])
    }
}

struct LoadAndRunTests {
    @Test func bindingsFlowFromSetUpToLaterSteps() async throws {
        let text = """
            set up:
              - create from factory: { factory: restaurant, as: place, properties: { restaurantID: 12345 } }
            scenarios:
              - scenario: Logs the restaurant
                steps:
                  - create from factory: { factory: review, as: review }
                  - log: "restaurant ${place.restaurantID}, review from ${review.factory}"
            """
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "reviews.yml")
        var settings = RunSettings()
        settings.defaultSetUp = []
        settings.defaultTearDown = []
        let runner = try ScenarioRunner(registry: FakeSteps.registry, settings: settings, clock: TestClock())
        var logs: [String] = []
        for await event in runner.events(running: scenarios) {
            if case .log(_, let line) = event { logs.append(line) }
        }
        #expect(logs == ["restaurant 12345, review from review"])
    }
}
