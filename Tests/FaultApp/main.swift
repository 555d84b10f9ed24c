import ExampleApp
import Foundation
import ObjectManager
import ScenarioRunCLI
import Scenarios
import Steps
import Synchronization

// `scenario-run-faults`: the example app's scenario-run with steps that misbehave the ways app code can
// — crash, raise a signal, exit, never return — for the end-to-end tests of fault containment.

/// `crash: MESSAGE` — a `fatalError` in app code.
let crash = StepDefinition(name: "crash", summary: "Crashes the process with fatalError(MESSAGE)", usage: ["MESSAGE"]) {
    arguments,
    _ in
    let message = try arguments.scalar()
    return Step("crash: \(message)") { _ in fatalError(message) }
}

/// `raise signal: NUMBER` — the process gets a signal (11 is a segmentation fault).
let raiseSignal = StepDefinition(name: "raise signal", summary: "Sends the process a signal", usage: ["NUMBER"]) {
    arguments,
    _ in
    let number = try arguments.intValue(in: 1...31)
    return Step("raise signal \(number)") { _ in
        raise(Int32(number))
        return .success
    }
}

/// `exit process: STATUS` — app code calls `exit()`.
let exitProcess = StepDefinition(name: "exit process", summary: "Calls exit(STATUS)", usage: ["STATUS"]) {
    arguments,
    _ in
    let status = try arguments.intValue(in: 0...255)
    return Step("exit process \(status)") { _ in exit(Int32(status)) }
}

/// `ignore cancellation` — never returns, and goes on when cancelled.
let ignoreCancellation = StepDefinition(name: "ignore cancellation", summary: "Never returns, even when cancelled") {
    _,
    _ in
    Step("ignore cancellation") { _ in
        while true { try? await Task.sleep(for: .milliseconds(20)) }
    }
}

/// `sleep: SECONDS` — takes that long on the wall clock, and stops when cancelled.
let sleepStep = StepDefinition(name: "sleep", summary: "Sleeps, stopping when cancelled", usage: ["SECONDS"]) {
    arguments,
    _ in
    let seconds = try arguments.doubleValue()
    return Step("sleep \(seconds) s", timeout: .seconds(seconds + 60)) { _ in
        try await Task.sleep(for: .seconds(seconds))
        return .success
    }
}

/// `touch: PATH` — creates an empty file: a test waits for it to know the scenario got that far.
let touch = StepDefinition(name: "touch", summary: "Creates an empty file", usage: ["PATH"]) { arguments, _ in
    let path = try arguments.scalar()
    return Step("touch \(path)") { _ in
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return .success
    }
}

/// How many times `fail times` has run, per scenario, in this process.
let runs = Mutex<[String: Int]>([:])

/// `fail times: N` — fails the first N times it runs in a scenario (in this process), then passes: a
/// flaky step, for `--retries`.
let failTimes = StepDefinition(name: "fail times", summary: "Fails its first N runs, then passes", usage: ["N"]) {
    arguments,
    _ in
    let times = try arguments.intValue(in: 0...1000)
    return Step("fail times \(times)") { context in
        let run = runs.withLock { runs in
            runs[context.scenario.name, default: 0] += 1
            return runs[context.scenario.name] ?? 0
        }
        return run <= times ? .failure("Run \(run) of this step fails on purpose.") : .success
    }
}

/// Work `start app job` marks busy when its job is declared.
let appJobs = CountingIdlingResource("app job")

/// `start app job: {after: SECONDS, declared: BOOL}` — starts work the way app code does on its own (a
/// debounce in a `Task` no step launched): after the delay it loads `/restaurants` through the shared
/// object manager. Declared, the job raises the `app job` idling resource while it runs.
let startAppJob = StepDefinition(
    name: "start app job",
    summary: "Starts app-owned work: after a delay, loads /restaurants",
    usage: ["{after, declared}"]
) { arguments, _ in
    _ = try arguments.oneOf([.mapping(required: ["after"], optional: ["declared"])])
    let seconds = try arguments.double("after")
    let declared = try arguments.optionalBool("declared") ?? false
    return Step("start app job after \(seconds) s" + (declared ? " (declared)" : "")) { _ in
        let job: @Sendable () async -> Void = {
            try? await Task.sleep(for: .seconds(seconds))
            _ = try? await ObjectManager.shared?.getObjects(forRouteNamed: "restaurants")
        }
        if declared { appJobs.increment() }
        Task {
            await job()
            if declared { appJobs.decrement() }
        }
        return .success
    }
}

await ScenarioRun.main(
    app: AppUnderTest(
        makeFactory: { RestaurantReviews.makeTestFactory() },
        steps: RestaurantReviews.steps + [
            crash, raiseSignal, exitProcess, ignoreCancellation, sleepStep, touch, failTimes, startAppJob,
        ],
        idlingResources: [appJobs]
    )
)
