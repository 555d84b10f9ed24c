import ExampleApp
import Foundation
import ObjectManager
import ScenarioRunCLI
import Scenarios
import Steps
import Synchronization

// `scenario-run-faults`: the example app's scenario-run with steps that misbehave the ways app code can
// — crash, raise a signal, exit, never return — for the end-to-end tests of fault containment.

let message = StepArgument<String>.required("message", .string)

/// `crash: MESSAGE` — a `fatalError` in app code.
let crash = StepDefinition("crash", summary: "Crashes the process with fatalError(MESSAGE)", forms: [.value(message)]) {
    input,
    _ in
    let text = try input.literal(message)
    return Step("crash: \(text)") { _ in fatalError(text) }
}

let signalNumber = StepArgument<Int>.required("number", .integer(in: 1...31))

/// `raise signal: NUMBER` — the process gets a signal (11 is a segmentation fault).
let raiseSignal = StepDefinition("raise signal", summary: "Sends the process a signal", forms: [.value(signalNumber)]) {
    input,
    _ in
    let number = try input.literal(signalNumber)
    return Step("raise signal \(number)") { _ in
        raise(Int32(number))
        return .success
    }
}

let exitStatus = StepArgument<Int>.required("status", .integer(in: 0...255))

/// `exit process: STATUS` — app code calls `exit()`.
let exitProcess = StepDefinition("exit process", summary: "Calls exit(STATUS)", forms: [.value(exitStatus)]) {
    input,
    _ in
    let status = try input.literal(exitStatus)
    return Step("exit process \(status)") { _ in exit(Int32(status)) }
}

/// Never returns, and goes on when cancelled: each sleep then throws at once, and is tried again.
func ignoreCancellationForever() async -> Never {
    while true { try? await Task.sleep(for: .milliseconds(20)) }
}

/// `ignore cancellation` — never returns, and goes on when cancelled.
let ignoreCancellation = StepDefinition("ignore cancellation", summary: "Never returns, even when cancelled") {
    _,
    _ in
    Step("ignore cancellation") { _ in
        await ignoreCancellationForever()
    }
}

let sleepSeconds = StepArgument<Double>.required("seconds", .number)

/// `sleep: SECONDS` — takes that long on the wall clock, and stops when cancelled.
let sleepStep = StepDefinition("sleep", summary: "Sleeps, stopping when cancelled", forms: [.value(sleepSeconds)]) {
    input,
    _ in
    let seconds = try input.literal(sleepSeconds)
    return Step("sleep \(seconds) s", timeout: .seconds(seconds + 60)) { _ in
        try await Task.sleep(for: .seconds(seconds))
        return .success
    }
}

/// App code that hangs its thread: a synchronous call, as a step's action would make it.
func hangThread(forSeconds seconds: Double) {
    Thread.sleep(forTimeInterval: seconds)
}

let blockSeconds = StepArgument<Double>.required("seconds", .number)
let blockMarker = StepArgument<String?>.optional("touching", .string, "A file created as the step starts blocking")

/// `block thread: SECONDS` (or `{seconds: S, touching: PATH}`) — holds its thread that long in a blocking
/// call (a hung main thread), without ever awaiting: no timer on that thread can end it.
let blockThread = StepDefinition(
    "block thread",
    summary: "Blocks its thread in Thread.sleep",
    forms: [.value(blockSeconds), .mapping(blockSeconds.any, blockMarker.any)]
) { input, _ in
    let seconds = try input.literal(blockSeconds)
    let marker = try input.literal(blockMarker)
    return Step("block thread \(seconds) s") { _ in
        if let marker { _ = FileManager.default.createFile(atPath: marker, contents: nil) }
        hangThread(forSeconds: seconds)
        return .success
    }
}

let printedText = StepArgument<String>.required("text", .string)

/// `print line: TEXT` — app code prints a line on standard output (and flushes it).
let printLine = StepDefinition("print line", summary: "Prints a line on standard output", forms: [.value(printedText)])
{ input, _ in
    let text = try input.literal(printedText)
    return Step("print line") { _ in
        print(text)
        fflush(nil)
        return .success
    }
}

/// `log line: TEXT` — a line in the scenario's log, as a step writes one (`ScenarioContext.log`).
let logLine = StepDefinition("log line", summary: "Writes a line to the scenario's log", forms: [.value(printedText)]) {
    input,
    _ in
    let text = try input.literal(printedText)
    return Step("log line") { context in
        context.log(text)
        return .success
    }
}

let touchedPath = StepArgument<String>.required("path", .string)

/// `touch: PATH` — creates an empty file: a test waits for it to know the scenario got that far.
let touch = StepDefinition("touch", summary: "Creates an empty file", forms: [.value(touchedPath)]) { input, _ in
    let path = try input.literal(touchedPath)
    return Step("touch \(path)") { _ in
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return .success
    }
}

/// `ignore cancellation after touching: PATH` — creates an empty file, then does what `ignore cancellation`
/// does: a test that waits for the file knows the step is under way, not only the one before it.
let touchThenIgnoreCancellation = StepDefinition(
    "ignore cancellation after touching",
    summary: "Creates an empty file, then never returns, even when cancelled",
    forms: [.value(touchedPath)]
) { input, _ in
    let path = try input.literal(touchedPath)
    return Step("ignore cancellation after touching \(path)") { _ in
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        await ignoreCancellationForever()
    }
}

/// `wait for file: PATH` — waits (up to a minute) until the file exists: a test creates it to let the
/// scenario go on, instead of guessing how long something else takes.
let waitForFile = StepDefinition("wait for file", summary: "Waits until a file exists", forms: [.value(touchedPath)]) {
    input,
    _ in
    let path = try input.literal(touchedPath)
    return Step("wait for file \(path)", timeout: .seconds(60)) { _ in
        FileManager.default.fileExists(atPath: path) ? .success : .wait("No file at \(path) yet")
    }
}

/// How many times `fail times` has run, per scenario, in this process.
let runs = Mutex<[String: Int]>([:])

let failCount = StepArgument<Int>.required("times", .integer(in: 0...1000))

/// `fail times: N` — fails the first N times it runs in a scenario (in this process), then passes: a
/// flaky step, for `--retries`.
let failTimes = StepDefinition("fail times", summary: "Fails its first N runs, then passes", forms: [.value(failCount)])
{
    input,
    _ in
    let times = try input.literal(failCount)
    return Step("fail times \(times)") { context in
        let run = runs.withLock { runs in
            runs[context.scenario.name, default: 0] += 1
            return runs[context.scenario.name] ?? 0
        }
        return run <= times ? .failure("Run \(run) of this step fails on purpose.") : .success
    }
}

/// `fail on run: N` — fails only the Nth time it runs in a scenario (in this process): a repetition of
/// `--repeat` that fails.
let failOnRun = StepDefinition("fail on run", summary: "Fails its Nth run only", forms: [.value(failCount)]) {
    input,
    _ in
    let failing = try input.literal(failCount)
    return Step("fail on run \(failing)") { context in
        let run = runs.withLock { runs in
            runs[context.scenario.name, default: 0] += 1
            return runs[context.scenario.name] ?? 0
        }
        return run == failing ? .failure("Run \(run) of this step fails on purpose.") : .success
    }
}

/// Work `start app job` marks busy when its job is declared.
let appJobs = CountingIdlingResource("app job")

let jobDelay = StepArgument<Double>.required("after", .number, "Seconds before the job loads /restaurants")
let jobDeclared = StepArgument<Bool>.optional(
    "declared",
    .boolean,
    default: false,
    "Whether the job is an idling resource"
)

/// `start app job: {after: SECONDS, declared: BOOL}` — starts work the way app code does on its own (a
/// debounce in a `Task` no step launched): after the delay it loads `/restaurants` through the shared
/// object manager. Declared, the job raises the `app job` idling resource while it runs.
let startAppJob = StepDefinition(
    "start app job",
    summary: "Starts app-owned work: after a delay, loads /restaurants",
    forms: [.mapping(jobDelay.any, jobDeclared.any)]
) { input, _ in
    let seconds = try input.literal(jobDelay)
    let declared = try input.literal(jobDeclared)
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

/// A file the app opens before `ScenarioRun.main` (`SCENARIO_RUN_FAULTS_APP_LOG`), as a global would hold a
/// log file: a worker forked from the runner writes to the same descriptor.
let appLog: Int32 =
    getenv("SCENARIO_RUN_FAULTS_APP_LOG").map { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) } ?? -1

/// `write app log: TEXT` — app code writes a line to the file it opened before `ScenarioRun.main`.
let writeAppLog = StepDefinition(
    "write app log",
    summary: "Writes a line to the app's own log file",
    forms: [.value(printedText)]
) { input, _ in
    let text = try input.literal(printedText) + "\n"
    return Step("write app log") { _ in
        guard appLog >= 0 else { return .failure("No app log: SCENARIO_RUN_FAULTS_APP_LOG is not set.") }
        let written = text.withCString { write(appLog, $0, strlen($0)) }
        return written > 0
            ? .success : .failure("The app log could not be written: \(String(cString: strerror(errno))).")
    }
}

/// `SCENARIO_RUN_FAULTS_STUCK_HOOK=set-up` (or `tear-down`): the app's set-up (or tear-down) hook that
/// the first time it runs in this process never returns, and goes on when cancelled — as the
/// `ignore cancellation` step does, in the default set-up or tear-down instead of a step of its own.
let stuckHook = ProcessInfo.processInfo.environment["SCENARIO_RUN_FAULTS_STUCK_HOOK"]
let stuckHookRan = Mutex(false)

func makeFactory() -> TestFactory {
    let factory = RestaurantReviews.makeTestFactory()
    let hook: TestFactory.Hook = { _ in
        let ranBefore = stuckHookRan.withLock { ran in
            defer { ran = true }
            return ran
        }
        guard !ranBefore else { return }
        await ignoreCancellationForever()
    }
    switch stuckHook {
    case "set-up": factory.addSetUpHook(hook)
    case "tear-down": factory.addTearDownHook(hook)
    default: break
    }
    return factory
}

ScenarioRun.run(
    app: AppUnderTest(
        makeFactory: { makeFactory() },
        steps: RestaurantReviews.steps + [
            crash, raiseSignal, exitProcess, ignoreCancellation, touchThenIgnoreCancellation, sleepStep, touch,
            waitForFile, failTimes, failOnRun,
            startAppJob,
            blockThread, printLine, logLine, writeAppLog,
        ],
        idlingResources: [appJobs]
    )
)
