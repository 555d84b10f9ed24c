import Diagnostics
import Foundation
import Scenarios

/// Step definitions standing in for the Steps module, to exercise the loader and the runner.
enum FakeSteps {
    static let vocabulary = Vocabulary([
        .classRoute: ["Review POST", "Review GET", "Restaurant GET"],
        .factory: ["restaurant", "review"],
        .entity: ["Review", "Restaurant"],
    ])

    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let buildContext = StepBuildContext(fixturesDirectory: fixturesDirectory, vocabulary: vocabulary)

    static let routeClass = StepArgument<String>.required("class", .string)
    static let routeMethod = StepArgument<String>.required("method", .string)
    static let routeTo = StepArgument<String>.required("to", .string)
    static let factory = StepArgument<String>.required("factory", .factory)
    static let properties = StepArgument<[String: String]?>.optional("properties", .textMapping)
    static let status = StepArgument<Int>.required("status", .integer)
    static let reason = StepArgument<String?>.optional("reason", .string)
    static let requiredReason = StepArgument<String>.required("reason", .string)
    static let seconds = StepArgument<Duration>.required("seconds", .seconds)
    static let fixtureName = StepArgument<String>.required(
        "name",
        ArgumentType<String>.string.checked { name, node, context throws(StepArgumentError) in
            try context.checkFixture(name, at: node.location)
        }
    )
    static let text = StepArgument<String>.required("text", .string)

    static let definitions: [StepDefinition] = [
        StepDefinition(
            "stub route",
            summary: "Re-points a class route",
            forms: [.mapping(routeClass.any, routeMethod.any, routeTo.any)]
        ) { input, context in
            let className = try input.literal(routeClass)
            let method = try input.literal(routeMethod)
            try context.vocabulary.check("\(className) \(method)", is: .classRoute, at: input.location(of: routeClass))
            return Step(input.sourceDescription) { _ in .success }
        }
        .buildingOncePerFile(),
        StepDefinition(
            "create from factory",
            summary: "Builds an object",
            forms: [.mapping(factory.any, properties.any)],
            bindsName: true
        ) { input, _ in
            var values = input.written(properties) ?? [:]
            values["factory"] = try input.literal(factory)
            let name = input.bindingName
            let frozen = values
            return Step(input.sourceDescription) { scenario in
                if let name { scenario.bind(name, to: frozen) }
                return .success
            }
        },
        StepDefinition("expect response", summary: "Checks the last response", forms: [.mapping(status.any)]) {
            input,
            _ in
            let status = try input.literal(status)
            return Step(input.sourceDescription) { _ in
                status == 200 ? .success : .failure("Expected status \(status), got 200")
            }
        }
        .buildingOncePerFile(),
        StepDefinition("succeed", summary: "Always passes", forms: [.value(reason)]) { input, _ in
            guard let reason = try input.literal(reason) else { return Step("succeed") { _ in .success } }
            return Step.succeed(reason)
        },
        StepDefinition("fail", summary: "Always fails", forms: [.value(requiredReason)]) { input, _ in
            Step.fail(try input.literal(requiredReason))
        },
        StepDefinition("wait", summary: "Waits", forms: [.value(seconds)]) { input, _ in
            Step.wait(try input.literal(seconds))
        },
        StepDefinition("use fixture", summary: "Reads a fixture", forms: [.value(fixtureName)]) { input, _ in
            _ = try input.literal(fixtureName)
            return Step(input.sourceDescription) { _ in .success }
        },
        StepDefinition("log", summary: "Logs an interpolated line", forms: [.value(text)]) { input, _ in
            Step(input.sourceDescription) { context in
                context.log(try input[text].resolve(in: context))
                return .success
            }
        },
    ]

    static let registry: StepRegistry = {
        var builder = StepRegistry.Builder()
        // The names are distinct, so registration cannot fail.
        try? builder.register(contentsOf: definitions)
        return builder.build()
    }()

    static let loader = ScenarioLoader(registry: registry, buildContext: buildContext)
}
