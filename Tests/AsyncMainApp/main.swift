import ExampleApp
import Foundation
import ScenarioRunCLI

// `scenario-run-async`: the example app's scenario-run from a `main.swift` that awaits something before the
// run — `await ScenarioRun.main(app:)`, whose first worker is spawned (the process has threads by then), for
// the end-to-end test of that form. With `SCENARIO_RUN_ASYNC_CALLS_RUN` set it calls the synchronous
// `ScenarioRun.run(app:)` there instead, off the main thread: a mistake that must be said.
await Task.yield()
if ProcessInfo.processInfo.environment["SCENARIO_RUN_ASYNC_CALLS_RUN"] != nil {
    ScenarioRun.run(app: RestaurantReviews.appUnderTest)
}
await ScenarioRun.main(app: RestaurantReviews.appUnderTest)
