import Diagnostics
import Foundation
import ObjectManager
import RunPipeline
import ScenarioRunCLI
import Scenarios
import Testing

/// The lines `--jobs` workers write: every scenario-level event survives the round trip; run-level
/// events and lines that are not events are refused.
struct RunEventLinesTests {
    let id = ScenarioID(file: "Scenarios/r\u{e9}views.yml", name: "Posting \"quoted\" \\ and ✓")

    @Test func everyScenarioLevelEventRoundTrips() throws {
        let events: [RunEvent] = [
            .scenarioStarted(id),
            .stepStarted(id, step: 2, phase: .setUp),
            .stepWaiting(id, step: 3, reason: "0 Review object(s),\nexpected 1", waited: .milliseconds(1500)),
            .stepFinished(id, step: 3, phase: .steps, outcome: .passed, duration: .nanoseconds(123_456_789)),
            .stepFinished(id, step: 4, phase: .tearDown, outcome: .skipped, duration: .zero),
            .stepFinished(
                id,
                step: 5,
                phase: .steps,
                outcome: .failed(reason: "Expected 201", location: SourceLocation(file: "s.yml", line: 12, column: 9)),
                duration: .seconds(2)
            ),
            .stepFinished(
                id,
                step: 6,
                phase: .steps,
                outcome: .failed(reason: "Run cancelled.", location: nil),
                duration: .zero
            ),
            .stepStarted(id, step: 7, phase: .leakCheck),
            .stepFinished(
                id,
                step: 7,
                phase: .leakCheck,
                outcome: .warned(reason: "1 Review row; queue still suspended"),
                duration: .zero
            ),
            .log(id, "POST /review → 201 (1 object)"),
            .requests(
                id,
                [SentRequest(method: "GET", path: "/r\u{e9}views/7"), SentRequest(method: "POST", path: "/a\"b")]
            ),
            // A failed try's log has its bodies; a passed one's (the HTML report's rule) only their lengths.
            .requestLog(
                id,
                [
                    LoggedRequest(
                        method: "POST",
                        target: "/r\u{e9}views?draft=\"1\"",
                        status: 422,
                        route: "Fixtures/server.yml:7",
                        received: Date(timeIntervalSince1970: 1_700_000_000),
                        requestBody: #"{"title": "</script>"}"#,
                        requestBodyLength: 22,
                        responseBody: "",
                        responseBodyLength: 0
                    ),
                    LoggedRequest(method: "GET", target: "/slow", status: nil, route: nil),
                ],
                dropped: 3
            ),
            .requestLog(
                id,
                [
                    LoggedRequest(
                        method: "GET",
                        target: "/restaurants",
                        status: 200,
                        route: nil,
                        requestBodyLength: 0,
                        responseBodyLength: 1024
                    )
                ],
                dropped: 0
            ),
            .scenarioFinished(id, outcome: .failed(step: 5, reason: "Expected 201"), duration: .milliseconds(31)),
            .scenarioFinished(id, outcome: .passed, duration: .seconds(3600)),
            .scenarioFinished(id, outcome: .skipped, duration: .zero),
        ]
        for event in events {
            let line = try #require(RunEventLines.encode(event))
            #expect(line.last == UInt8(ascii: "\n"))
            #expect(!line.dropLast().contains(UInt8(ascii: "\n")), "one line per event")
            #expect(RunEventLines.decode(line.dropLast()) == event)
        }
    }

    static let a = ScenarioID(file: "Scenarios/a \"quoted\".yml", name: "Café ✓ — A")
    static let b = ScenarioID(file: "Scenarios/b.yml", name: "B\tтаб")
    /// Two scenarios' events, interleaved as one worker's never are and two workers' merged are.
    static let interleaved: [RunEvent] = [
        .scenarioStarted(a, worker: 0), .log(a, "line \\ one"),
        .stepFinished(a, step: 0, phase: .setUp, outcome: .passed, duration: .milliseconds(2)),
        .scenarioStarted(b), .log(b, "b's"), .log(a, "a again"),
        .scenarioFinished(b, outcome: .passed, duration: .seconds(1)),
        .scenarioFinished(a, outcome: .failed(step: 1, reason: "no"), duration: .zero),
    ]

    /// A worker writes its lines into one buffer, each scenario's identity escaped once and kept for its
    /// next events: lines of several scenarios, interleaved, each read back as its own event, and a line
    /// is the JSON array of its fields.
    @Test func linesWrittenWithAKeptIdentityNameTheirOwnScenario() throws {
        let (a, events) = (Self.a, Self.interleaved)
        var out: [UInt8] = []
        var identity: RunEventLines.Identity?
        for event in events { #expect(RunEventLines.append(event, to: &out, identity: &identity)) }
        #expect(!RunEventLines.append(.runFinished(RunSummary()), to: &out, identity: &identity))
        let lines = out.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == events.count)
        for (line, event) in zip(lines, events) {
            #expect(RunEventLines.decode(Data(line)) == event)
            #expect(Data(line) + Data("\n".utf8) == RunEventLines.encode(event), "as written alone")
        }
        let expected = JSONValue.array([
            "stepFinished", .string(a.file), .string(a.name), .int(0), "setUp", "passed", .int(2_000_000),
        ])
        #expect(Data(lines[2]) == expected.encoded())
    }

    /// One worker's lines read by one decoder, which reads a line that repeats the last identity
    /// without it: every line is read as it is read alone — interleaved scenarios, the app's output, the
    /// end, and damaged lines that start with a known identity.
    @Test func aDecoderReadsEveryLineAsItIsReadAlone() throws {
        let (b, events) = (Self.b, Self.interleaved)
        var lines = try events.map { try #require(RunEventLines.encode($0)).dropLast() }
        // b's identity as a line writes it: the app printing exactly that is output, not an event.
        let identity =
            String(decoding: JSONValue.string(b.file).encoded(), as: UTF8.self) + ","
            + String(decoding: JSONValue.string(b.name).encoded(), as: UTF8.self)
        lines.insert(RunEventLines.encodeOutput(identity).dropLast(), at: 5)
        for damaged in [
            #"["log",\#(identity)"#, #"["log",\#(identity)]"#, #"["log",\#(identity),]"#, #"["log",\#(identity),"x"] "#,
            #"["log",\#(identity),"x"]]"#, #"["finished",\#(identity),"passed"]"#, #"["log",\#(identity)"x"]"#,
            #"["end",\#(identity)]"#, #"["output",\#(identity)]"#, #"["lo"g",\#(identity),"x"]"#,
            // Fields read where they are, after the identity, and as the whole line: both read them alike
            // (a comma and nothing after it is no field, here as in the whole line).
            #"["started",\#(identity),]"#, #"["started",\#(identity),[]]"#, #"["log",\#(identity),"x" ]"#,
            #"["step",\#(identity),3,"setUp"]"#, #"["step",\#(identity),-3,"setUp"]"#,
            #"["step",\#(identity),01,"setUp"]"#, #"["step",\#(identity),0,"setUp"]"#,
            #"["step",\#(identity),-0,"setUp"]"#, #"["step",\#(identity),-,"setUp"]"#,
            #"["step",\#(identity),3 ,"setUp"]"#, #"["step",\#(identity), 3,"setUp"]"#,
            #"["step",\#(identity),3.0,"setUp"]"#, #"["step",\#(identity),3e2,"setUp"]"#,
            #"["step",\#(identity),99999999999999999999,"setUp"]"#, #"["step",\#(identity),true,"setUp"]"#,
            #"["step",\#(identity),3,"setUp""#, #"["step",\#(identity),3,"setUp]"#,
            #"["step",\#(identity),3,"setUp"]x"#,
            #"["step",\#(identity),3,"setUp",]"#, #"["step",\#(identity),3,,"setUp"]"#,
            #"["step",\#(identity),3"setUp"]"#,
            #"["step",\#(identity),3,"set\u0055p"]"#, #"["step",\#(identity),3,"set\"Up"]"#,
            "[\"step\",\(identity),3,\"set\tUp\"]", "[\"step\",\(identity),3,\"set\u{7F}Up\"]",
            #"["started",\#(identity),null]"#, #"["started",\#(identity),nul]"#, #"["started",\#(identity),1]"#,
            #"["stepFinished",\#(identity),1,"steps","passed",9223372036854775807]"#,
            #"["stepFinished",\#(identity),1,"steps","passed",-9223372036854775808]"#,
            #"["stepFinished",\#(identity),1,"steps","passed",9223372036854775808]"#,
            #"["finished",\#(identity),"passed",12]"#, #"["log",\#(identity),"r\#u{e9}views"]"#,
        ] {
            lines.append(Data(damaged.utf8))
            lines.append(try #require(RunEventLines.encode(.log(b, "again"))).dropLast())
        }
        // Bytes that are not UTF-8 in a string (a lone continuation byte, a cut sequence).
        for bytes: [UInt8] in [[0x80], [0xE2, 0x86], [0xE2, 0x86, 0x92]] {
            lines.append(Data(#"["log",\#(identity),"a"#.utf8) + Data(bytes) + Data(#"b"]"#.utf8))
        }
        lines.append(RunEventLines.encodeEnd(status: 0).dropLast())
        var decoder = RunEventLines.Decoder()
        for line in lines {
            #expect(
                decoder.decodeMessage(line) == RunEventLines.decodeMessage(line),
                "\(String(decoding: line, as: UTF8.self))"
            )
        }
        // Read by the decoder that knows b's identity: a negative number, UTF-8 in a string, a passed step.
        #expect(
            decoder.decodeMessage(Data(#"["step",\#(identity),-3,"setUp"]"#.utf8))
                == .event(.stepStarted(b, step: -3, phase: .setUp))
        )
        #expect(
            decoder.decodeMessage(Data(#"["log",\#(identity),"GET / → 200"]"#.utf8)) == .event(.log(b, "GET / → 200"))
        )
        #expect(
            decoder.decodeMessage(Data(#"["stepFinished",\#(identity),0,"steps","passed",0]"#.utf8))
                == .event(.stepFinished(b, step: 0, phase: .steps, outcome: .passed, duration: .zero))
        )
    }

    @Test func runLevelEventsAndOtherLinesAreNotEvents() throws {
        #expect(RunEventLines.encode(.runStarted(RunPlan(scenarios: []))) == nil)
        #expect(RunEventLines.encode(.runFinished(RunSummary())) == nil)
        for line in [
            "", "[]", "{}", "not json", #"["finished","f","n"]"#, #"["started","f","n","1"]"#, #"["log","f","n",1]"#,
            #"["requests","f","n",[["GET"]]]"#, #"["requests","f","n",[["GET",1]]]"#, #"["requests","f","n","GET /"]"#,
            #"["requests","f","n",[["GET","/"],]]"#, #"["requests","f","n",[["GET","/","x"]]]"#,
            #"["requests","f","n",[["GET","/"]],1]"#, #"["requestLog","f","n",[],0,1]"#,
            #"["requestLog","f","n",[["GET","/",200,null,0,null,0,null]],0]"#,
            #"["requestLog","f","n",[["GET","/",200,null,0,null,0,null,0,1]],0]"#,
            #"["requestLog","f","n",[["GET","/","200",null,0,null,0,null,0]],0]"#,
            #"["requestLog","f","n",[["GET","/",200,null,0,null,0,null,0]]]"#,
            // More requests than a scenario's line carries.
            #"["requests","f","n",["#
                + Array(repeating: #"["GET","/"]"#, count: SentRequest.perScenario + 1)
                .joined(separator: ",") + "]]",
            #"["requestLog","f","n",["#
                + Array(repeating: #"["GET","/",200,null,0,null,0,null,0]"#, count: LoggedRequest.perScenario + 1)
                .joined(separator: ",") + "],0]",
        ] {
            #expect(RunEventLines.decode(Data(line.utf8)) == nil, "\(line.prefix(80))")
        }
        let id = ScenarioID(file: "f", name: "n")
        #expect(RunEventLines.decode(Data(#"["requestLog","f","n",[],3]"#.utf8)) == .requestLog(id, [], dropped: 3))
        let most = Array(repeating: SentRequest(method: "GET", path: "/"), count: SentRequest.perScenario)
        let line = try #require(RunEventLines.encode(.requests(id, most)))
        #expect(RunEventLines.decode(line.dropLast()) == .requests(id, most))
    }

    /// A worker's last line says how it ends; nothing else, or a status that is no exit status, is one.
    @Test func theEndLineCarriesTheStatusAndOnlyIt() {
        let line = RunEventLines.encodeEnd(status: 0)
        #expect(line == Data("[\"end\",0]\n".utf8))
        #expect(RunEventLines.decodeMessage(line.dropLast()) == .end(status: 0))
        #expect(RunEventLines.decodeMessage(Data(#"["end",4]"#.utf8)) == .end(status: 4))
        for damaged in [#"["end"]"#, #"["end","0"]"#, #"["end",0,1]"#, #"["end",99999999999]"#, #"["end",0.5]"#] {
            #expect(RunEventLines.decodeMessage(Data(damaged.utf8)) == nil, "\(damaged)")
        }
    }

    /// What the app printed between scenarios travels as output, never as an event, whatever it says.
    @Test func theAppsOutputIsAMessageOfItsOwn() throws {
        let forged = #"["finished","f.yml","A","passed",1000]"#
        let line = RunEventLines.encodeOutput(forged)
        #expect(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")))
        #expect(RunEventLines.decodeMessage(line.dropLast()) == .output(forged))
        let id = ScenarioID(file: "f.yml", name: "A")
        let event = try #require(RunEventLines.encode(.scenarioStarted(id)))
        #expect(RunEventLines.decodeMessage(event.dropLast()) == .event(.scenarioStarted(id)))
        #expect(RunEventLines.decodeMessage(Data(#"["output",1]"#.utf8)) == nil)
    }
}
