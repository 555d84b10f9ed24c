import Diagnostics
import Foundation
import ObjectManager
import RunPipeline
import Scenarios

/// The run's events for tools (`scenario-run --events FILE`): one JSON object per line, each with its
/// `event` kind, in the order the run reports them — the same stream every reporter reads. Its form is
/// versioned (``version``, on every line) and documented in `docs/events.md`; its JSON
/// Schema is `scenario-run schema events`.
///
/// ```swift
/// RunEventStream.encode(.log(id, "GET /restaurants 200"))
/// // {"event":"log","file":"Scenarios/a.yml","scenario":"A","text":"GET /restaurants 200"}\n
/// ```
///
/// Unlike the workers' wire (`RunEventLines`), which is private to one version of scenario-run and
/// positional for speed, this form names every field and only ever grows: a field is never removed or
/// retyped without a new ``version``.
enum RunEventStream {
    /// The form's version: 1.
    static let version = 1

    /// The event as one line of JSON, ending in a newline.
    static func encode(_ event: RunEvent) -> Data {
        var fields: [String: JSONValue]
        switch event {
        case .runStarted(let plan):
            fields = [
                "event": "run-started",
                "scenarios": .array(plan.scenarios.map(planned)),
            ]
        case .scenarioStarted(let id, let worker):
            fields = scenario("scenario-started", id)
            if let worker { fields["worker"] = .int(worker) }
        case .stepStarted(let id, let step, let phase):
            fields = scenario("step-started", id)
            fields["step"] = .int(step)
            fields["phase"] = .string(phase.streamName)
        case .stepWaiting(let id, let step, let reason, let waited):
            fields = scenario("step-waiting", id)
            fields["step"] = .int(step)
            fields["reason"] = .string(reason)
            fields["waited"] = seconds(waited)
        case .stepFinished(let id, let step, let phase, let outcome, let duration):
            fields = scenario("step-finished", id)
            fields["step"] = .int(step)
            fields["phase"] = .string(phase.streamName)
            fields["duration"] = seconds(duration)
            switch outcome {
            case .passed: fields["outcome"] = "passed"
            case .skipped: fields["outcome"] = "skipped"
            case .warned(let reason):
                fields["outcome"] = "warned"
                fields["reason"] = .string(reason)
            case .failed(let reason, let location):
                fields["outcome"] = "failed"
                fields["reason"] = .string(reason)
                if let location { fields["location"] = self.location(location) }
            }
        case .log(let id, let text):
            fields = scenario("log", id)
            fields["text"] = .string(text)
        case .requests(let id, let requests):
            fields = scenario("requests", id)
            fields["requests"] = .array(
                requests.map { .object(["method": .string($0.method), "path": .string($0.path)]) }
            )
        case .requestLog(let id, let requests, let dropped):
            fields = scenario("request-log", id)
            fields["requests"] = .array(requests.map(logged))
            fields["dropped"] = .int(dropped)
        case .attemptFinished(let id, let attempt, let outcome, let duration):
            fields = scenario("attempt-finished", id)
            fields["attempt"] = .int(attempt)
            fields["duration"] = seconds(duration)
            add(outcome, to: &fields)
        case .scenarioFinished(let id, let outcome, let duration):
            fields = scenario("scenario-finished", id)
            fields["duration"] = seconds(duration)
            add(outcome, to: &fields)
        case .runFinished(let summary):
            fields = [
                "event": "run-finished", "passed": .int(summary.passed), "failed": .int(summary.failed),
                "skipped": .int(summary.skipped), "duration": seconds(summary.duration),
                "cancelled": .bool(summary.cancelled),
            ]
        }
        fields["version"] = .int(version)
        var data = JSONValue.object(fields).encoded(sortedKeys: true)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// A JSON Schema (draft 2020-12) of one line of the stream.
    static var schema: JSONValue {
        func object(_ kind: String, _ properties: [String: JSONValue], required: [String]) -> JSONValue {
            var all = properties
            all["event"] = .object(["const": .string(kind)])
            all["version"] = .object(["const": .int(version)])
            return .object([
                "type": "object", "properties": .object(all),
                "required": .array((["event", "version"] + required).map(JSONValue.string)),
            ])
        }
        let string: JSONValue = .object(["type": "string"])
        let count: JSONValue = .object(["type": "integer", "minimum": .int(0)])
        let seconds: JSONValue = .object(["type": "number", "minimum": .int(0)])
        let location: JSONValue = .object([
            "type": "object", "properties": .object(["file": string, "line": count, "column": count]),
            "required": ["file", "line", "column"],
        ])
        let phase: JSONValue = .object(["enum": ["set-up", "steps", "tear-down", "leak-check"]])
        let request: JSONValue = .object([
            "type": "object", "properties": .object(["method": string, "path": string]),
            "required": ["method", "path"],
        ])
        let logged: JSONValue = .object([
            "type": "object",
            "properties": .object([
                "method": string, "target": string, "status": count, "route": string, "time": seconds,
                "requestBody": string, "requestBodyLength": count, "responseBody": string,
                "responseBodyLength": count, "bodiesKept": .object(["type": "boolean"]),
            ]),
            "required": [
                "method", "target", "time", "requestBody", "requestBodyLength", "responseBody", "responseBodyLength",
            ],
        ])
        let scenario: [String: JSONValue] = ["file": string, "scenario": string]
        let scenarioKeys = ["file", "scenario"]
        let stepOutcome: JSONValue = .object(["enum": ["passed", "failed", "warned", "skipped"]])
        let scenarioOutcome: JSONValue = .object(["enum": ["passed", "failed", "skipped"]])
        let step: JSONValue = .object([
            "type": "object",
            "properties": .object(["description": string, "phase": phase, "location": location]),
            "required": ["description", "phase"],
        ])
        let planned: JSONValue = .object([
            "type": "object",
            "properties": .object(
                scenario.merging([
                    "feature": string, "tags": .object(["type": "array", "items": string]), "location": location,
                    "steps": .object(["type": "array", "items": step]), "skip": string, "row": count,
                ]) { $1 }
            ),
            "required": .array((scenarioKeys + ["feature", "tags", "location", "steps"]).map(JSONValue.string)),
        ])
        return .object([
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "scenario-run --events: one line",
            "oneOf": .array([
                object(
                    "run-started",
                    ["scenarios": .object(["type": "array", "items": planned])],
                    required: ["scenarios"]
                ),
                object(
                    "scenario-started",
                    scenario.merging(["worker": .object(["type": "integer", "minimum": .int(1)])]) { $1 },
                    required: scenarioKeys
                ),
                object(
                    "step-started",
                    scenario.merging(["step": count, "phase": phase]) { $1 },
                    required: scenarioKeys + ["step", "phase"]
                ),
                object(
                    "step-waiting",
                    scenario.merging(["step": count, "reason": string, "waited": seconds]) { $1 },
                    required: scenarioKeys + ["step", "reason", "waited"]
                ),
                object(
                    "step-finished",
                    scenario.merging([
                        "step": count, "phase": phase, "outcome": stepOutcome, "reason": string, "location": location,
                        "duration": seconds,
                    ]) { $1 },
                    required: scenarioKeys + ["step", "phase", "outcome", "duration"]
                ),
                object("log", scenario.merging(["text": string]) { $1 }, required: scenarioKeys + ["text"]),
                object(
                    "requests",
                    scenario.merging(["requests": .object(["type": "array", "items": request])]) { $1 },
                    required: scenarioKeys + ["requests"]
                ),
                object(
                    "request-log",
                    scenario.merging(["requests": .object(["type": "array", "items": logged]), "dropped": count]) {
                        $1
                    },
                    required: scenarioKeys + ["requests", "dropped"]
                ),
                object(
                    "attempt-finished",
                    scenario.merging([
                        "attempt": count, "outcome": scenarioOutcome, "step": count, "reason": string,
                        "duration": seconds,
                    ]) { $1 },
                    required: scenarioKeys + ["attempt", "outcome", "duration"]
                ),
                object(
                    "scenario-finished",
                    scenario.merging([
                        "outcome": scenarioOutcome, "step": count, "reason": string, "duration": seconds,
                    ]) { $1 },
                    required: scenarioKeys + ["outcome", "duration"]
                ),
                object(
                    "run-finished",
                    [
                        "passed": count, "failed": count, "skipped": count, "duration": seconds,
                        "cancelled": .object(["type": "boolean"]),
                    ],
                    required: ["passed", "failed", "skipped", "duration", "cancelled"]
                ),
            ]),
        ])
    }

    private static func scenario(_ kind: String, _ id: ScenarioID) -> [String: JSONValue] {
        ["event": .string(kind), "file": .string(id.file), "scenario": .string(id.name)]
    }

    private static func add(_ outcome: ScenarioOutcome, to fields: inout [String: JSONValue]) {
        switch outcome {
        case .passed: fields["outcome"] = "passed"
        case .skipped: fields["outcome"] = "skipped"
        case .failed(let step, let reason):
            fields["outcome"] = "failed"
            fields["step"] = .int(step)
            fields["reason"] = .string(reason)
        }
    }

    private static func planned(_ scenario: RunPlan.PlannedScenario) -> JSONValue {
        var fields: [String: JSONValue] = [
            "file": .string(scenario.id.file), "scenario": .string(scenario.id.name),
            "feature": .string(scenario.feature), "tags": .array(scenario.tags.map(JSONValue.string)),
            "location": Self.location(scenario.location),
            "steps": .array(
                scenario.steps.map { step in
                    var fields: [String: JSONValue] = [
                        "description": .string(step.description), "phase": .string(step.phase.streamName),
                    ]
                    if let written = step.location { fields["location"] = Self.location(written) }
                    return .object(fields)
                }
            ),
        ]
        if let skip = scenario.skip { fields["skip"] = .string(skip) }
        if let row = scenario.row { fields["row"] = .int(row) }
        return .object(fields)
    }

    /// A request of the log: `{"method", "target", "status"?, "route"?, "time", "requestBody", …,
    /// "bodiesKept"}` (bodies not kept for the try: `""`, and `bodiesKept` false).
    private static func logged(_ request: LoggedRequest) -> JSONValue {
        var fields: [String: JSONValue] = [
            "method": .string(request.method), "target": .string(request.target),
            "time": .double((request.received.timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000),
            "requestBody": .string(request.requestBody ?? ""), "requestBodyLength": .int(request.requestBodyLength),
            "responseBody": .string(request.responseBody ?? ""),
            "responseBodyLength": .int(request.responseBodyLength),
            "bodiesKept": .bool(request.requestBody != nil || request.responseBody != nil),
        ]
        if let status = request.status { fields["status"] = .int(status) }
        if let route = request.route { fields["route"] = .string(route) }
        return .object(fields)
    }

    /// `{"file": …, "line": …, "column": …}`.
    private static func location(_ location: SourceLocation) -> JSONValue {
        .object(["file": .string(location.file), "line": .int(location.line), "column": .int(location.column)])
    }

    /// Seconds, to the microsecond.
    private static func seconds(_ duration: Duration) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        return .double(Double(seconds) + Double(attoseconds / 1_000_000_000_000) / 1_000_000)
    }
}

extension StepPhase {
    /// The phase's name in the event stream: `set-up`, `steps`, `tear-down`, `leak-check`.
    fileprivate var streamName: String {
        switch self {
        case .setUp: "set-up"
        case .steps: "steps"
        case .tearDown: "tear-down"
        case .leakCheck: "leak-check"
        }
    }
}
