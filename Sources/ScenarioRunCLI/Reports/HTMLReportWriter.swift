import Diagnostics
import Foundation
import ObjectManager
import Scenarios
import Synchronization

/// `--html FILE` (`html report:`): the run as one self-contained HTML page (docs/html-report.md), written
/// as the events come so that it is whole after a failure, a cancelled run, a crashed worker or a second
/// Ctrl-C.
///
/// The page is its shell (``HTMLReportPage``: the style and the script, no network) followed by the run's
/// data, one `<script type="application/json">` block per part: the run (command line, seed, shard, the
/// history), the plan, each scenario as it finishes (its steps, failure with the source line, tries, log
/// and request log, its bodies cut to ``LoggedRequest/bodyBytes`` or, for a try that passed,
/// ``LoggedRequest/passedBodyBytes``), and the end
/// (the totals of ``RunTally``). The page's script reads the blocks when it
/// opens and renders lazily. Blocks are only ever appended, so the file is a valid page at every write; a
/// block cut short by a killed process is one the page skips and says so. No text is ever put in HTML by
/// this writer: it is JSON with `<`, `>` and `&` escaped, which the page sets as text.
final class HTMLReportWriter: Sendable {
    /// What the page says of the run besides its events.
    struct Header: Sendable {
        var commandLine: String
        var seed: UInt64?
        var shard: String?
        var history: [RunHistory.Run]
        /// `--repeat`: how many times each scenario runs, so the page says runs, not tries.
        var repetitions = 1
    }

    private struct Scenario {
        var worker: Int?
        var tries = 0
        var failedTries: [JSONValue] = []
        /// The last try's steps: outcome and duration by index.
        var steps: [Int: (outcome: StepOutcome, duration: Duration)] = [:]
        var logs: [String] = []
        var requests: [LoggedRequest] = []
        var droppedRequests = 0
    }

    private struct State {
        var output: AppendedOutput
        var tally = RunTally()
        var plan = RunPlan(scenarios: [])
        var index: [ScenarioID: Int] = [:]
        var running: [ScenarioID: Scenario] = [:]
        var flaky = 0
        var runs = 0
        var started = Date()
        /// Scenario files' lines, read once each for the source line of a failure.
        var sources: [String: SourceText?] = [:]
    }

    /// Most log lines kept per scenario.
    static let logLines = 200
    /// Most scenario files read for failures' source lines.
    static let sourceFiles = 256
    /// How long finished scenarios may wait in memory before they are written (a write per scenario would
    /// cost a run of 10,000 short scenarios 10,000 writes).
    static let flushInterval = Duration.milliseconds(250)

    private let path: String
    private let header: Header
    private let state: Mutex<State>
    /// Writes what waits every ``flushInterval``, so that a scenario's end is on disk soon even when the
    /// next one runs for a long time (and a killed run loses at most that much).
    /// (Dispatch sources are thread-safe; the type is not marked so.)
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// Opens (creates, or empties) the page at `path`; the shell is written at the run's start.
    init(path: String, header: Header) throws(FileWriteError) {
        self.path = path
        self.header = header
        state = Mutex(
            State(output: AppendedOutput(descriptor: try FileWriteError.openStream(URL(fileURLWithPath: path))))
        )
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "scenario-run.html-report"))
        let interval = DispatchTimeInterval.milliseconds(
            Int(Self.flushInterval.components.attoseconds / 1_000_000_000_000_000)
        )
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            self?.state.withLock { state in state.output.flush(path: path) }
        }
        timer.resume()
    }

    deinit {
        timer.cancel()
        state.withLock { state in
            if state.output.descriptor >= 0 { close(state.output.descriptor) }
        }
    }

    func handle(_ event: RunEvent) {
        state.withLock { state in
            guard state.output.isWritable else { return }
            state.tally.record(event)
            switch event {
            case .runStarted(let plan):
                start(plan, &state)
            case .scenarioStarted(let id, let worker):
                var scenario = Scenario()
                if let earlier = state.running[id] {
                    scenario.tries = earlier.tries
                    scenario.failedTries = earlier.failedTries
                }
                scenario.tries += 1
                scenario.worker = worker
                state.running[id] = scenario
            case .stepFinished(let id, let step, _, let outcome, let duration):
                state.running[id]?.steps[step] = (outcome, duration)
            case .log(let id, let line):
                if let count = state.running[id]?.logs.count, count < Self.logLines {
                    state.running[id]?.logs.append(line)
                }
            case .requestLog(let id, let requests, let dropped):
                state.running[id]?.requests = requests
                state.running[id]?.droppedRequests = dropped
            case .attemptFinished(let id, let attempt, let outcome, let duration):
                if case .failed(let step, let reason) = outcome {
                    state.running[id]?.failedTries.append([
                        .int(attempt), .int(step), .string(reason), seconds(duration),
                    ])
                }
            case .scenarioFinished(let id, let outcome, let duration):
                finished(id, outcome, duration, &state)
            case .runFinished(let summary):
                let totals = state.tally.summary
                append(
                    [
                        "k": "end", "passed": .int(totals.passed), "failed": .int(totals.failed),
                        "skipped": .int(totals.skipped), "flaky": .int(state.flaky),
                        "duration": seconds(summary.duration), "cancelled": .bool(summary.cancelled),
                    ],
                    to: &state
                )
                state.output.flush(path: path)
            case .stepStarted, .stepWaiting, .requests:
                break
            }
        }
    }

    /// Adds what the run says at its end (a worker that failed outside any scenario), writes what is left
    /// and closes the page; throws the first failed write, if any.
    func finish(notes: [String]) throws(FileWriteError) {
        timer.cancel()
        let failure = state.withLock { state -> FileWriteError? in
            if !notes.isEmpty, state.output.descriptor >= 0 {
                append(["k": "notes", "notes": .array(notes.map(JSONValue.string))], to: &state)
            }
            state.output.flush(path: path)
            if state.output.descriptor >= 0 { close(state.output.descriptor) }
            state.output.descriptor = -1
            return state.output.failure
        }
        if let failure { throw failure }
    }

    // MARK: Parts

    private func start(_ plan: RunPlan, _ state: inout State) {
        state.runs += 1
        if state.runs > 1 {
            // `--watch`: the page is of the latest run.
            state.output.flush(path: path)
            if state.output.failure == nil, lseek(state.output.descriptor, 0, SEEK_SET) == 0 {
                _ = ftruncate(state.output.descriptor, 0)
            }
        }
        state.plan = plan
        state.index = Dictionary(plan.scenarios.enumerated().map { ($1.id, $0) }) { first, _ in first }
        state.running = [:]
        state.flaky = 0
        state.started = Date()
        state.output.pending.append(Data(HTMLReportPage.shell.utf8))
        var files: [String: String] = [:]
        let keys = plan.scenarios.map { scenario -> String in
            let file = files[scenario.id.file] ?? FailureState.stableFile(scenario.id.file)
            files[scenario.id.file] = file
            return RunHistory.key(file: file, name: scenario.id.name)
        }
        let marks = RunHistory.marks(for: keys, in: header.history)
        var run: [String: JSONValue] = [
            "k": "run", "command": .string(header.commandLine),
            "started": .double(state.started.timeIntervalSince1970.rounded()),
            "history": .array(
                header.history.suffix(RunHistory.kept).map { run in
                    [
                        seconds(run.time), seconds(run.duration), .int(run.passed), .int(run.failed),
                        .int(run.skipped), .int(run.flaky), .bool(run.cancelled),
                    ]
                }
            ),
            "caps": [
                "body": .int(LoggedRequest.bodyBytes), "passedBody": .int(LoggedRequest.passedBodyBytes),
                "requests": .int(LoggedRequest.perScenario),
                "log": .int(Self.logLines),
            ],
        ]
        if let seed = header.seed { run["seed"] = .string(String(seed)) }
        if let shard = header.shard { run["shard"] = .string(shard) }
        if header.repetitions > 1 { run["repeat"] = .int(header.repetitions) }
        append(run, to: &state)
        let scenarios = zip(plan.scenarios, marks).map { scenario, marks -> JSONValue in
            [
                .string(scenario.id.file), .string(scenario.id.name), .string(scenario.feature),
                .array(scenario.tags.map(JSONValue.string)), .int(scenario.location.line),
                scenario.skip.map(JSONValue.string) ?? .null, scenario.row.map(JSONValue.int) ?? .null,
                .string(marks),
            ]
        }
        append(["k": "plan", "scenarios": .array(scenarios)], to: &state)
        state.output.flush(path: path)
    }

    private func finished(_ id: ScenarioID, _ outcome: ScenarioOutcome, _ duration: Duration, _ state: inout State) {
        guard let index = state.index[id] else { return }
        let planned = state.plan.scenarios[index]
        let scenario = state.running.removeValue(forKey: id)
        var block: [String: JSONValue] = [
            "k": "s", "i": .int(index), "d": seconds(duration),
            // When it started, from the run's start: its end, when this process heard of it, less its time.
            "t": seconds(max(.zero, .seconds(Date().timeIntervalSince(state.started)) - duration)),
        ]
        switch outcome {
        case .passed:
            let flaky = !(scenario?.failedTries.isEmpty ?? true)
            if flaky { state.flaky += 1 }
            block["o"] = flaky ? "flaky" : "passed"
        case .skipped:
            block["o"] = "skipped"
        case .failed(let step, let reason):
            block["o"] = "failed"
            var failure: [String: JSONValue] = ["step": .int(step), "reason": .string(reason)]
            let location = planned.steps.indices.contains(step) ? planned.steps[step].location : nil
            if let location = location ?? Optional(planned.location) {
                failure["at"] = .string(location.fileAndLine)
                if let line = sourceLine(location, &state) { failure["source"] = .string(line) }
            }
            block["fail"] = .object(failure)
        }
        guard let scenario else {
            append(block, to: &state)
            return
        }
        if let worker = scenario.worker { block["w"] = .int(worker) }
        if scenario.tries > 1 { block["tries"] = .int(scenario.tries) }
        if !scenario.failedTries.isEmpty { block["failedTries"] = .array(scenario.failedTries) }
        block["steps"] = .array(
            planned.steps.enumerated().map { step, plannedStep in
                var fields: [JSONValue] = [
                    .string(plannedStep.description), .string(plannedStep.phase.rawValue),
                    plannedStep.location.map { .int($0.line) } ?? .null,
                ]
                guard let (outcome, duration) = scenario.steps[step] else { return .array(fields + ["none"]) }
                switch outcome {
                case .passed: fields.append("passed")
                case .skipped: fields.append("skipped")
                case .warned(let reason): fields += ["warned", seconds(duration), .string(reason)]
                case .failed(let reason, _): fields += ["failed", seconds(duration), .string(reason)]
                }
                if case .passed = outcome { fields.append(seconds(duration)) }
                return .array(fields)
            }
        )
        if !scenario.logs.isEmpty { block["log"] = .array(scenario.logs.map(JSONValue.string)) }
        if !scenario.requests.isEmpty || scenario.droppedRequests > 0 {
            block["requests"] = .array(
                scenario.requests.map { request in
                    [
                        .string(request.method), .string(request.target), request.status.map(JSONValue.int) ?? .null,
                        request.route.map(JSONValue.string) ?? .null,
                        seconds(.seconds(max(0, request.received.timeIntervalSince(state.started)))),
                        request.requestBody.map(JSONValue.string) ?? .null, .int(request.requestBodyLength),
                        request.responseBody.map(JSONValue.string) ?? .null, .int(request.responseBodyLength),
                    ]
                }
            )
            if scenario.droppedRequests > 0 { block["droppedRequests"] = .int(scenario.droppedRequests) }
        }
        append(block, to: &state)
    }

    /// The text of the line at `location`, from the scenario file (read once per file, at most
    /// ``sourceFiles`` files).
    private func sourceLine(_ location: SourceLocation, _ state: inout State) -> String? {
        if state.sources[location.file] == nil {
            guard state.sources.count < Self.sourceFiles else { return nil }
            let text = try? String(contentsOfFile: location.file, encoding: .utf8)
            state.sources[location.file] = .some(text.map(SourceText.init))
        }
        guard case .some(.some(let source)) = state.sources[location.file] else { return nil }
        return source.line(location.line).map { String($0.prefix(400)) }
    }

    /// Adds one data block: JSON in a `<script type="application/json">`, with `<`, `>` and `&` written
    /// as `\u003c`, `\u003e`, `\u0026` (they can only be inside strings), so no text can end the block
    /// or open a comment.
    ///
    /// A scenario's block also says its index and outcome as attributes (`data-i="3" data-o="failed"`): the
    /// page draws its tree from those and parses a block's JSON only when the scenario is shown.
    private func append(_ fields: [String: JSONValue], to state: inout State) {
        if case .int(let index)? = fields["i"], case .string(let outcome)? = fields["o"] {
            state.output.pending.append(
                contentsOf:
                    #"<script type="application/json" class="run-data" data-i="\#(index)" data-o="\#(outcome)">"#
                    .utf8
            )
        } else {
            state.output.pending.append(contentsOf: #"<script type="application/json" class="run-data">"#.utf8)
        }
        state.output.pending.append(contentsOf: JSONValue.object(fields).htmlSafeText())
        state.output.pending.append(contentsOf: "</script>\n".utf8)
    }

    /// Seconds, to the microsecond.
    private func seconds(_ duration: Duration) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        return .double(Double(seconds) + Double(attoseconds / 1_000_000_000_000) / 1_000_000)
    }

    private func seconds(_ value: Double) -> JSONValue {
        .double((value * 1_000_000).rounded() / 1_000_000)
    }
}
