import Diagnostics
import Scenarios

@testable import TUIRunner

/// A small demo plan (two features, five scenarios) and the events of running it.
enum Fixtures {
    static let reviews = "Scenarios/reviews.yml"
    static let store = "Scenarios/store.yml"

    static let posting = ScenarioID(file: reviews, name: "Posting a review that succeeds")
    static let rejected = ScenarioID(file: reviews, name: "Posting a review that the server rejects")
    static let offline = ScenarioID(file: reviews, name: "Posting a review while offline")
    static let factories = ScenarioID(file: store, name: "Factories build objects")
    static let empty = ScenarioID(file: store, name: "Each scenario starts with an empty store")

    static let ids = [posting, rejected, offline, factories, empty]

    static func planned(_ id: ScenarioID) -> RunPlan.PlannedScenario {
        RunPlan.PlannedScenario(
            id: id,
            feature: id.file == reviews ? "Reviews" : "Store",
            tags: [],
            location: SourceLocation(file: id.file, line: 9, column: 5),
            steps: [
                .init(description: "set up the test environment", phase: .setUp, location: nil),
                .init(
                    description: "stub route {class: Review, method: POST, to: /422}",
                    phase: .steps,
                    location: SourceLocation(file: id.file, line: 11, column: 9)
                ),
                .init(
                    description: "expect response {status: 201}",
                    phase: .steps,
                    location: SourceLocation(file: id.file, line: 12, column: 9)
                ),
                .init(description: "tear down the test environment", phase: .tearDown, location: nil),
            ]
        )
    }

    static func plan(_ ids: [ScenarioID] = ids) -> RunPlan { RunPlan(scenarios: ids.map(planned)) }

    /// The events of one scenario that passes.
    static func passing(_ id: ScenarioID) -> [RunEvent] {
        var events: [RunEvent] = [.scenarioStarted(id)]
        for (index, phase) in [StepPhase.setUp, .steps, .steps, .tearDown].enumerated() {
            events.append(.stepStarted(id, step: index, phase: phase))
            events.append(.stepFinished(id, step: index, phase: phase, outcome: .passed, duration: .milliseconds(3)))
        }
        events.append(.log(id, "POST /review → 201"))
        events.append(.scenarioFinished(id, outcome: .passed, duration: .milliseconds(12)))
        return events
    }

    static let failure = "Expected status 201, got 422"

    /// The events of one scenario whose third step fails.
    static func failing(_ id: ScenarioID) -> [RunEvent] {
        let location = SourceLocation(file: id.file, line: 12, column: 9)
        return [
            .scenarioStarted(id),
            .stepStarted(id, step: 0, phase: .setUp),
            .stepFinished(id, step: 0, phase: .setUp, outcome: .passed, duration: .milliseconds(2)),
            .stepStarted(id, step: 1, phase: .steps),
            .stepFinished(id, step: 1, phase: .steps, outcome: .passed, duration: .milliseconds(1)),
            .stepStarted(id, step: 2, phase: .steps),
            .log(id, "POST /422 → 422"),
            .stepWaiting(id, step: 2, reason: "no response yet", waited: .milliseconds(50)),
            .stepFinished(
                id,
                step: 2,
                phase: .steps,
                outcome: .failed(reason: failure, location: location),
                duration: .seconds(10)
            ),
            .stepStarted(id, step: 3, phase: .tearDown),
            .stepFinished(id, step: 3, phase: .tearDown, outcome: .passed, duration: .milliseconds(2)),
            .scenarioFinished(id, outcome: .failed(step: 2, reason: failure), duration: .milliseconds(10_031)),
        ]
    }

    /// A whole run: the second scenario fails, the rest pass.
    static func finishedRun() -> [RunEvent] {
        var events: [RunEvent] = [.runStarted(plan())]
        for id in ids { events += id == rejected ? failing(id) : passing(id) }
        events.append(.runFinished(RunSummary(passed: 4, failed: 1, duration: .milliseconds(10_100))))
        return events
    }

    static func state(_ events: [RunEvent], inspector: Bool = false) -> TUIState {
        var state = TUIState(inspectorAvailable: inspector)
        for event in events { state.apply(event) }
        return state
    }

    static func inspection() -> InspectorSnapshot {
        InspectorSnapshot(
            routes: [
                .init(
                    text: "class route Review POST → POST /422 (was /restaurants/:restaurantID/reviews)",
                    stubbed: true
                ),
                .init(text: "named route 'restaurants' → GET /restaurants", stubbed: false),
            ],
            queueSuspended: true,
            pendingRequests: ["POST /review"],
            reachability: "reachable via wifi",
            cachedResponses: ["GET /restaurants (200, 512 bytes)"],
            entities: [
                .init(name: "Restaurant", count: 1, rows: [#"{"name":"Chez Swift","restaurantID":12345}"#]),
                .init(
                    name: "Review",
                    count: 2,
                    rows: [#"{"reviewID":1,"title":"Great"}"#, #"{"reviewID":2,"title":"Meh"}"#]
                ),
            ]
        )
    }
}
