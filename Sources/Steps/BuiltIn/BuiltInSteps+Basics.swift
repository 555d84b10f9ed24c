import Diagnostics
import Scenarios

/// The definitions of `wait`, `fail` and `succeed`, whose bodies are the engine's own
/// (`Sources/Scenarios/Model/Step+BuiltIns.swift`).
extension BuiltInSteps {
    static let wait = StepDefinition(name: "wait", summary: "Passes after the time has passed", usage: ["SECONDS"]) {
        (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        let seconds = try arguments.doubleValue()
        guard Duration(checkedSeconds: seconds) != nil else {
            throw StepArgumentError(
                "Step 'wait' takes a number of seconds from 0 to 86400 (a day).",
                at: arguments.location
            )
        }
        return .wait(seconds: seconds)
    }

    static let fail = StepDefinition(name: "fail", summary: "Always fails", usage: ["REASON"]) {
        (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        .fail(arguments.isEmpty ? "Failed on purpose" : try arguments.scalar())
    }

    static let succeed = StepDefinition(name: "succeed", summary: "Always passes", usage: ["REASON"]) {
        (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        .succeed(arguments.isEmpty ? "Passed" : try arguments.scalar())
    }
}
