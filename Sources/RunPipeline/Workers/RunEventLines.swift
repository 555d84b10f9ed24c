import Diagnostics
package import Foundation
import ObjectManager
package import Scenarios

/// Scenario-level run events as compact JSON lines, the way `scenario-run --jobs` workers report to
/// their parent: a positional array per event, written and read with the object manager's JSON
/// writer and parser (several times faster than `JSONEncoder` over the events' `Codable` form, which
/// mattered at ~10 events per scenario).
///
/// ```swift
/// let line = RunEventLines.encode(.log(id, "GET /restaurants 200"))   // ["log","s.yml","A","GET /restaurants 200"]\n
/// RunEventLines.decode(line.dropLast())                              // the same event
/// ```
///
/// Run-level events (`runStarted`, `runFinished`) are not encoded: a parallel run announces its own.
package enum RunEventLines {
    /// The event as one line of JSON ending in a newline; `nil` for run-level events.
    package static func encode(_ event: RunEvent) -> Data? {
        var line: [UInt8] = []
        var identity: Identity?
        guard append(event, to: &line, identity: &identity) else { return nil }
        return Data(line)
    }

    /// A scenario's identity as its lines write it, `"FILE","NAME"`, kept from one of its events to the
    /// next by a writer of many (a worker): escaping it was most of the cost of writing a line.
    package struct Identity {
        let id: ScenarioID
        let bytes: [UInt8]

        init(_ id: ScenarioID) {
            var bytes: [UInt8] = []
            JSONValue.appendString(id.file, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONValue.appendString(id.name, to: &bytes)
            self.id = id
            self.bytes = bytes
        }
    }

    /// What a line says happened, as its first field names it (`"stepFinished"`): read from the line's bytes,
    /// with no string made of them (a worker's parent reads about fifteen lines a scenario).
    enum Kind: CaseIterable {
        case started, step, waiting, stepFinished, log, requests, requestLog, attempt, finished

        /// The name a line writes.
        var name: StaticString {
            switch self {
            case .started: "started"
            case .step: "step"
            case .waiting: "waiting"
            case .stepFinished: "stepFinished"
            case .log: "log"
            case .requests: "requests"
            case .requestLog: "requestLog"
            case .attempt: "attempt"
            case .finished: "finished"
            }
        }

        /// The kind named `bytes`; `nil` for any other name.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            for kind in Self.allCases {
                let name = kind.name
                if name.utf8CodeUnitCount == bytes.count, let start = bytes.baseAddress,
                    memcmp(name.utf8Start, start, bytes.count) == 0
                {
                    self = kind
                    return
                }
            }
            return nil
        }

        /// The kind named `name`; `nil` for any other name.
        init?(_ name: String) {
            var name = name
            guard let kind = name.withUTF8({ Kind($0) }) else { return nil }
            self = kind
        }
    }

    /// `text`'s bytes at the end of `out`, copied at once (a string's UTF-8 view is appended a byte at a time).
    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Writes the event's line (as ``encode(_:)`` makes it) at the end of `out`, the scenario's identity
    /// taken from `identity` when it is the same scenario's (and kept there for the next event); `false`,
    /// and nothing written, for run-level events.
    package static func append(_ event: RunEvent, to out: inout [UInt8], identity: inout Identity?) -> Bool {
        func start(_ kind: Kind, _ id: ScenarioID) {
            out.append(UInt8(ascii: "["))
            out.append(UInt8(ascii: "\""))
            kind.name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ","))
            // Compared where it is kept: copied out to be compared, it was retained and released for every line.
            if identity?.id != id { identity = Identity(id) }
            if let bytes = identity?.bytes { out.append(contentsOf: bytes) }
        }
        func field(_ value: JSONValue) {
            out.append(UInt8(ascii: ","))
            value.append(to: &out)
        }
        // The fields every scenario writes several times, written straight (the same bytes as a JSON value's
        // `field`): made into JSON values first, they were most of the cost of a line.
        func field(_ number: Int) {
            out.append(UInt8(ascii: ","))
            TextBytes.appendDecimal(number, to: &out)
        }
        func field(_ text: String) {
            out.append(UInt8(ascii: ","))
            JSONValue.appendString(text, to: &out)
        }
        func field(_ duration: Duration) {
            field(nanosecondCount(duration))
        }
        // A phase's name is a plain word: nothing in it to escape.
        func field(_ phase: StepPhase) {
            switch phase {
            case .setUp: append(#","setUp""#, to: &out)
            case .steps: append(#","steps""#, to: &out)
            case .tearDown: append(#","tearDown""#, to: &out)
            case .leakCheck: append(#","leakCheck""#, to: &out)
            }
        }
        // A passed outcome, a step's or a scenario's, as `json(_:)` writes it.
        func passed() {
            append(#","passed""#, to: &out)
        }
        switch event {
        case .runStarted, .runFinished:
            return false
        case .scenarioStarted(let id, let worker):
            start(.started, id)
            if let worker { field(worker) }
        case .stepStarted(let id, let step, let phase):
            start(.step, id)
            field(step)
            field(phase)
        case .stepWaiting(let id, let step, let reason, let waited):
            start(.waiting, id)
            field(step)
            field(reason)
            field(waited)
        case .stepFinished(let id, let step, let phase, let outcome, let duration):
            start(.stepFinished, id)
            field(step)
            field(phase)
            if case .passed = outcome { passed() } else { field(json(outcome)) }
            field(duration)
        case .log(let id, let line):
            start(.log, id)
            field(line)
        case .requests(let id, let requests):
            start(.requests, id)
            // `[["METHOD","PATH"],…]`, the bytes of the pairs as JSON values, written straight.
            append(",[", to: &out)
            for (index, request) in requests.enumerated() {
                append(index == 0 ? "[" : ",[", to: &out)
                JSONValue.appendString(request.method, to: &out)
                out.append(UInt8(ascii: ","))
                JSONValue.appendString(request.path, to: &out)
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
        case .requestLog(let id, let requests, let dropped):
            start(.requestLog, id)
            append(",[", to: &out)
            for (index, request) in requests.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendLogged(request, to: &out)
            }
            out.append(UInt8(ascii: "]"))
            field(dropped)
        case .attemptFinished(let id, let attempt, let outcome, let duration):
            start(.attempt, id)
            field(attempt)
            field(json(outcome))
            field(duration)
        case .scenarioFinished(let id, let outcome, let duration):
            start(.finished, id)
            if case .passed = outcome { passed() } else { field(json(outcome)) }
            field(duration)
        }
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: "\n"))
        return true
    }

    /// What a worker sends its parent: run events, and what the app printed outside any scenario
    /// (inside one, it is the scenario's log).
    package enum Message: Equatable {
        case event(RunEvent)
        case output(String)
        /// The worker's last line, `["end",STATUS]`: it has ended its run and ends with `STATUS` at once,
        /// running nothing more (``WorkerProcess`` reads it as the worker's end).
        case end(status: Int32)
    }

    /// The worker's last line: `["end",STATUS]`.
    package static func encodeEnd(status: Int32) -> Data {
        Data("[\"end\",\(status)]\n".utf8)
    }

    /// Text the app printed while no scenario ran, as one line: `["output","TEXT"]`.
    package static func encodeOutput(_ text: String) -> Data {
        var data = JSONValue.array(["output", .string(text)]).encoded()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The message on one line (without its newline), or `nil` when the line is not one.
    package static func decodeMessage(_ line: Data) -> Message? {
        var decoder = Decoder()
        return decoder.decodeMessage(line)
    }

    /// Reads one worker's lines in order (``WorkerProcess``): a scenario's lines follow one another and
    /// repeat its identity, so the identity of the last one read is kept, as written, and a line that
    /// writes it again is read without it — its scenario's strings not made, nor compared later, again.
    /// Every line's fields are read where they are written (``JSONElements``), as the JSON parser reads
    /// any array, without an array of them made first.
    package struct Decoder {
        /// The last identity read, `"FILE","NAME"` as the writer writes it (``Identity``), and its id.
        private var last: Identity?

        package init() {}

        package mutating func decodeMessage(_ line: Data) -> Message? {
            line.withUnsafeBytes { raw -> Message? in
                let bytes = raw.bindMemory(to: UInt8.self)
                if let last, let event = Self.event(bytes, writing: last) { return .event(event) }
                // Any other line: what it is, and whose, read from its fields.
                var start = 0
                while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0D {
                    start += 1
                }
                guard start < bytes.count, bytes[start] == UInt8(ascii: "[") else { return nil }
                var fields = JSONElements(UnsafeBufferPointer(rebasing: bytes[(start + 1)...]))
                guard let name = fields.string() else { return nil }
                switch name {
                case "output":
                    guard let text = fields.string(), fields.isAtEnd() else { return nil }
                    return .output(text)
                case "end":
                    guard let status = fields.int().flatMap({ Int32(exactly: $0) }), fields.isAtEnd() else {
                        return nil
                    }
                    return .end(status: status)
                default:
                    guard let kind = Kind(name), let file = fields.string(), let scenario = fields.string() else {
                        return nil
                    }
                    let id = ScenarioID(file: file, name: scenario)
                    guard let event = RunEventLines.decode(kind, of: id, from: &fields) else { return nil }
                    if last?.id != id { last = Identity(id) }
                    return .event(event)
                }
            }
        }

        /// The event on `line` when it is `["KIND",` then `identity`'s bytes then its other fields;
        /// `nil` otherwise.
        private static func event(_ bytes: UnsafeBufferPointer<UInt8>, writing identity: Identity) -> RunEvent? {
            guard bytes.count > 4, bytes[0] == UInt8(ascii: "["), bytes[1] == UInt8(ascii: "\"") else { return nil }
            // A kind is a plain word: no escape, no quote in it.
            var index = 2
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: ","),
                // Not a scenario's event (`output`, `end`): read as any line is.
                let kind = Kind(UnsafeBufferPointer(rebasing: bytes[2..<index]))
            else { return nil }
            let start = index + 2
            let end = start + identity.bytes.count
            // Compared with `memcmp`: a generic comparison of the two buffers took about 9 instructions a
            // byte, and every event of a scenario repeats its identity.
            guard end < bytes.count,
                identity.bytes.withUnsafeBufferPointer({ identity in
                    guard let expected = identity.baseAddress, let line = bytes.baseAddress else {
                        return identity.isEmpty
                    }
                    return memcmp(expected, line + start, identity.count) == 0
                })
            else { return nil }
            // The fields after the identity, read where they are (the rest of the line's array).
            var fields = JSONElements(UnsafeBufferPointer(rebasing: bytes[end...]), afterElement: true)
            return RunEventLines.decode(kind, of: identity.id, from: &fields)
        }
    }

    /// The event on one line (without its newline), or `nil` when the line is not one.
    package static func decode(_ line: Data) -> RunEvent? {
        guard case .event(let event)? = decodeMessage(line) else { return nil }
        return event
    }

    /// The event of `kind` for scenario `id` whose other fields are what is left of `fields`, every one of
    /// them; `nil` when they are not its fields.
    private static func decode(_ kind: Kind, of id: ScenarioID, from fields: inout JSONElements) -> RunEvent? {
        let event: RunEvent
        switch kind {
        case .started:
            switch fields.next() {
            case nil: event = .scenarioStarted(id)
            case .int(let worker)?: event = .scenarioStarted(id, worker: worker)
            default: return nil
            }
        case .step:
            guard let step = fields.int(), let phase = phase(fields.next()) else { return nil }
            event = .stepStarted(id, step: step, phase: phase)
        case .waiting:
            guard let step = fields.int(), let reason = fields.string(), let waited = duration(fields.next()) else {
                return nil
            }
            event = .stepWaiting(id, step: step, reason: reason, waited: waited)
        case .stepFinished:
            guard let step = fields.int(), let phase = phase(fields.next()),
                let outcome = fields.next().flatMap(stepOutcome), let duration = duration(fields.next())
            else { return nil }
            event = .stepFinished(id, step: step, phase: phase, outcome: outcome, duration: duration)
        case .log:
            guard let line = fields.string() else { return nil }
            event = .log(id, line)
        case .requests:
            // `[["METHOD","PATH"],…]`, each pair read where it is written.
            let requests = fields.array { pairs -> [SentRequest]? in
                var requests: [SentRequest] = []
                while requests.count <= SentRequest.perScenario,
                    let pair = pairs.array({ pair -> SentRequest? in
                        guard let method = pair.string(), let path = pair.string() else { return nil }
                        return SentRequest(method: method, path: path)
                    })
                {
                    requests.append(pair)
                }
                return requests.count <= SentRequest.perScenario ? requests : nil
            }
            guard let requests else { return nil }
            event = .requests(id, requests)
        case .requestLog:
            let requests = fields.array { entries -> [LoggedRequest]? in
                var requests: [LoggedRequest] = []
                while requests.count <= LoggedRequest.perScenario, let request = entries.array(logged) {
                    requests.append(request)
                }
                return requests.count <= LoggedRequest.perScenario ? requests : nil
            }
            guard let requests, let dropped = fields.int() else { return nil }
            event = .requestLog(id, requests, dropped: dropped)
        case .attempt:
            guard let attempt = fields.int(), let outcome = fields.next().flatMap(scenarioOutcome),
                let duration = duration(fields.next())
            else { return nil }
            event = .attemptFinished(id, attempt: attempt, outcome: outcome, duration: duration)
        case .finished:
            guard let outcome = fields.next().flatMap(scenarioOutcome), let duration = duration(fields.next()) else {
                return nil
            }
            event = .scenarioFinished(id, outcome: outcome, duration: duration)
        }
        // Every field read: a line with more is not this event's.
        return fields.isAtEnd() ? event : nil
    }

    // MARK: Parts

    /// `[method, target, status|null, route|null, received µs, request body|null, its length, response body|null,
    /// its length]` (a body `null`: not kept for the try), at the end of `out`.
    private static func appendLogged(_ request: LoggedRequest, to out: inout [UInt8]) {
        func string(_ text: String?) {
            if let text { JSONValue.appendString(text, to: &out) } else { append("null", to: &out) }
            out.append(UInt8(ascii: ","))
        }
        func number(_ number: Int?) {
            if let number { TextBytes.appendDecimal(number, to: &out) } else { append("null", to: &out) }
            out.append(UInt8(ascii: ","))
        }
        out.append(UInt8(ascii: "["))
        string(request.method)
        string(request.target)
        number(request.status)
        string(request.route)
        number(Int((request.received.timeIntervalSince1970 * 1_000_000).rounded()))
        string(request.requestBody)
        number(request.requestBodyLength)
        string(request.responseBody)
        TextBytes.appendDecimal(request.responseBodyLength, to: &out)
        out.append(UInt8(ascii: "]"))
    }

    /// A request as ``appendLogged(_:to:)`` writes it, its fields read from `entry`.
    private static func logged(_ entry: inout JSONElements) -> LoggedRequest? {
        guard let method = entry.string(), let target = entry.string() else { return nil }
        let status: Int?
        switch entry.next() {
        case .int(let code)?: status = code
        case .null?: status = nil
        default: return nil
        }
        guard let route = optionalString(entry.next()), let received = entry.int(),
            let requestBody = optionalString(entry.next()), let requestLength = entry.int(),
            let responseBody = optionalString(entry.next()), let responseLength = entry.int()
        else { return nil }
        return LoggedRequest(
            method: method,
            target: target,
            status: status,
            route: route,
            received: Date(timeIntervalSince1970: Double(received) / 1_000_000),
            requestBody: requestBody,
            requestBodyLength: requestLength,
            responseBody: responseBody,
            responseBodyLength: responseLength
        )
    }

    /// A string, or `.some(nil)` for `null`; `nil` for anything else.
    private static func optionalString(_ value: JSONValue?) -> String?? {
        switch value {
        case .string(let text)?: .some(text)
        case .null?: .some(nil)
        default: nil
        }
    }

    private static func nanosecondCount(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }

    private static func duration(_ value: JSONValue?) -> Duration? {
        guard case .int(let nanoseconds)? = value else { return nil }
        return .nanoseconds(nanoseconds)
    }

    private static func phase(_ value: JSONValue?) -> StepPhase? {
        guard case .string(let raw)? = value else { return nil }
        return StepPhase(rawValue: raw)
    }

    private static func json(_ outcome: StepOutcome) -> JSONValue {
        switch outcome {
        case .passed: "passed"
        case .skipped: "skipped"
        case .warned(let reason): ["warned", .string(reason)]
        case .failed(let reason, let location):
            [
                "failed", .string(reason),
                location.map { [.string($0.file), .int($0.line), .int($0.column)] } ?? .null,
            ]
        }
    }

    private static func stepOutcome(_ value: JSONValue) -> StepOutcome? {
        switch value {
        case .string("passed"): return .passed
        case .string("skipped"): return .skipped
        case .array(let parts) where parts.count == 2 && parts[0] == "warned":
            guard case .string(let reason) = parts[1] else { return nil }
            return .warned(reason: reason)
        case .array(let parts) where parts.count == 3 && parts[0] == "failed":
            guard case .string(let reason) = parts[1] else { return nil }
            switch parts[2] {
            case .null:
                return .failed(reason: reason, location: nil)
            case .array(let location):
                guard location.count == 3, case .string(let file) = location[0], case .int(let line) = location[1],
                    case .int(let column) = location[2]
                else { return nil }
                return .failed(reason: reason, location: SourceLocation(file: file, line: line, column: column))
            default:
                return nil
            }
        default:
            return nil
        }
    }

    private static func json(_ outcome: ScenarioOutcome) -> JSONValue {
        switch outcome {
        case .passed: "passed"
        case .skipped: "skipped"
        case .failed(let step, let reason): ["failed", .int(step), .string(reason)]
        }
    }

    private static func scenarioOutcome(_ value: JSONValue) -> ScenarioOutcome? {
        switch value {
        case .string("passed"): return .passed
        case .string("skipped"): return .skipped
        case .array(let parts) where parts.count == 3 && parts[0] == "failed":
            guard case .int(let step) = parts[1], case .string(let reason) = parts[2] else { return nil }
            return .failed(step: step, reason: reason)
        default:
            return nil
        }
    }
}
