import ExampleApp
import Foundation
import RunPipeline
import ScenarioRunCLI
import Scenarios
import Steps
import Synchronization
import Testing

extension FullStack {
    /// Every executor gives the same events for the same plan. Here: this process's runner, and the
    /// worker protocol — the pool's machine, hand-out, refills and wire encoding — with one and two
    /// workers, in its in-memory twin; the worker processes are held to the runner through the binary
    /// (`EventStreamTests.everyExecutorGivesTheSameEvents`).
    @Suite struct ExecutorTests {
        static let paths = ["Scenarios/reviews.yml", "Scenarios/examples-failing/failing.yml", "Scenarios/queue.yml"]

        /// Each scenario's events in order — durations, waits and the worker left out (how often a step
        /// waits and how long things took differ from run to run), its log lines as a set — all the
        /// events, and the totals.
        static func run(
            _ executor: (ScenarioRunner) -> any RunExecutor,
            suite: ScenarioSuite,
            selected: [Scenario]
        ) async throws -> (events: [ScenarioID: [RunEvent]], all: [RunEvent], summary: RunSummary) {
            let server = suite.makeServer()
            _ = try await server.start()
            let runner = try suite.makeRunner(server: server, environment: [:])
            let events = Mutex<[RunEvent]>([])
            let summary = await executor(runner).run(selected, plan: runner.plan(selected)) { event in
                events.withLock { $0.append(event) }
            }
            await server.stop()
            let all = events.withLock { $0 }
            var byScenario: [ScenarioID: [RunEvent]] = [:]
            var logs: [ScenarioID: [RunEvent]] = [:]
            for event in all {
                guard let id = event.scenario, let normal = normalized(event) else { continue }
                // Requests that finish together log in either order: a scenario's log lines are compared
                // as a set, after its other events in order.
                if case .log = normal {
                    logs[id, default: []].append(normal)
                } else {
                    byScenario[id, default: []].append(normal)
                }
            }
            for (id, lines) in logs { byScenario[id, default: []] += lines.sorted { "\($0)" < "\($1)" } }
            return (byScenario, all, summary)
        }

        static func normalized(_ event: RunEvent) -> RunEvent? {
            switch event {
            case .stepWaiting:
                nil
            case .scenarioStarted(let id, _):
                .scenarioStarted(id)
            // Requests sent together arrive in either order.
            case .requests(let id, let requests):
                .requests(id, requests.sorted { ($0.method, $0.path) < ($1.method, $1.path) })
            case .stepFinished(let id, let step, let phase, let outcome, _):
                .stepFinished(id, step: step, phase: phase, outcome: normalized(outcome), duration: .zero)
            case .attemptFinished(let id, let attempt, let outcome, _):
                .attemptFinished(id, attempt: attempt, outcome: outcome, duration: .zero)
            case .scenarioFinished(let id, let outcome, _):
                .scenarioFinished(id, outcome: normalized(outcome), duration: .zero)
            default:
                event
            }
        }

        /// A reason may say how long a wait took (`gave up after 0.504 s`); the timeout it names stays.
        static func normalized(_ text: String) -> String {
            text.replacing(/after \d+\.\d+ s\b/, with: "after N s")
        }

        static func normalized(_ outcome: StepOutcome) -> StepOutcome {
            if case .failed(let reason, let location) = outcome {
                return .failed(reason: normalized(reason), location: location)
            }
            return outcome
        }

        static func normalized(_ outcome: ScenarioOutcome) -> ScenarioOutcome {
            if case .failed(let step, let reason) = outcome { return .failed(step: step, reason: normalized(reason)) }
            return outcome
        }

        @Test func theWorkerProtocolGivesTheRunnersEvents() async throws {
            var settings = RunSettings()
            settings.fixtures = repositoryFixtures.path
            let suite = try ScenarioSuite(
                app: RestaurantReviews.appUnderTest,
                settings: settings,
                directory: repositoryFixtures.deletingLastPathComponent()
            )
            let loaded = try suite.loadScenarios(paths: Self.paths)
            // Not the first loaded: a worker is handed scenarios by their position in the plan, not the load.
            let selected = Array(loaded.dropFirst())
            let inProcess = try await Self.run(
                { runner in InProcessExecutor { runner } },
                suite: suite,
                selected: selected
            )
            #expect(inProcess.summary.failed > 0 && inProcess.summary.passed > 0, "\(inProcess.summary)")
            #expect(Set(inProcess.events.keys) == Set(selected.map(\.id)))
            for jobs in [1, 2] {
                let twin = try await Self.run(
                    { runner in InMemoryWorkers(runner: runner, jobs: jobs) },
                    suite: suite,
                    selected: selected
                )
                #expect(twin.summary.passed == inProcess.summary.passed, "\(jobs) workers")
                #expect(twin.summary.failed == inProcess.summary.failed, "\(jobs) workers")
                let differing = selected.map(\.id).filter { twin.events[$0] != inProcess.events[$0] }
                for id in differing {
                    let mine = twin.events[id] ?? []
                    let theirs = inProcess.events[id] ?? []
                    let first =
                        zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                        ?? min(mine.count, theirs.count)
                    let ours = mine.dropFirst(first).first.map { "\($0)" } ?? "none"
                    let expected = theirs.dropFirst(first).first.map { "\($0)" } ?? "none"
                    Issue.record("\(jobs) workers, \(id), event \(first): \(ours) against \(expected)")
                }
                // The run's frame and the worker each scenario ran in (1-based), as the pool says it.
                #expect(twin.all.first.map { if case .runStarted = $0 { true } else { false } } == true)
                #expect(twin.all.last.map { if case .runFinished = $0 { true } else { false } } == true)
                let workers = Set(
                    twin.all.compactMap { event -> Int? in
                        if case .scenarioStarted(_, let worker) = event { worker } else { nil }
                    }
                )
                #expect(workers == Set(1...jobs), "\(jobs) workers")
            }
        }
    }
}
