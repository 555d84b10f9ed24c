import Diagnostics
import Scenarios

/// The definitions of `wait`, `fail` and `succeed`, whose bodies are the engine's own
/// (`Sources/Scenarios/Model/Step+BuiltIns.swift`).
extension BuiltInSteps {
    static let seconds = StepArgument<Duration>.required("seconds", .seconds, "How long to wait")
    static let reason = StepArgument<String?>.optional("reason", .string, "Said in the report")

    static let wait = StepDefinition(
        "wait",
        summary: "Passes after the time has passed",
        forms: [.value(seconds)],
        example: "wait: 0.5"
    ) { input, _ in
        .wait(input[seconds])
    }

    static let fail = StepDefinition(
        "fail",
        summary: "Always fails",
        forms: [.value(reason)],
        example: "fail: Not written yet"
    ) { input, _ in
        .fail(try input.literal(reason) ?? "Failed on purpose")
    }

    static let succeed = StepDefinition(
        "succeed",
        summary: "Always passes",
        forms: [.value(reason)],
        example: "succeed: Nothing to do here"
    ) { input, _ in
        .succeed(try input.literal(reason) ?? "Passed")
    }
}
