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

    static let definitions: [StepDefinition] = [
        StepDefinition(name: "stub route", summary: "Re-points a class route", usage: ["{class, method, to}"]) {
            arguments,
            context throws(StepArgumentError) in
            try arguments.rejectUnknownKeys(allowed: ["class", "method", "to"])
            let className = try arguments.string("class")
            let method = try arguments.string("method")
            _ = try arguments.string("to")
            try context.vocabulary.check(
                "\(className) \(method)",
                is: .classRoute,
                at: arguments["class"]?.location ?? arguments.location
            )
            return Step(arguments.sourceDescription) { _ in .success }
        },
        StepDefinition(
            name: "create from factory",
            summary: "Builds an object",
            usage: ["{factory, properties, as}"],
            bindsName: true
        ) { arguments, context throws(StepArgumentError) in
            try arguments.rejectUnknownKeys(allowed: ["factory", "properties"])
            let factory = try arguments.string("factory")
            try context.vocabulary.check(
                factory,
                is: .factory,
                at: arguments["factory"]?.location ?? arguments.location
            )
            var properties: [String: String] = ["factory": factory]
            if let mapping = try arguments.optionalMapping("properties") {
                for key in mapping.keys { properties[key] = try mapping.string(key) }
            }
            let name = arguments.bindingName
            let frozen = properties
            return Step(arguments.sourceDescription) { scenario in
                if let name { scenario.bind(name, to: frozen) }
                return .success
            }
        },
        StepDefinition(name: "expect response", summary: "Checks the last response", usage: ["{status}"]) {
            arguments,
            _ throws(StepArgumentError) in
            try arguments.rejectUnknownKeys(allowed: ["status"])
            let status = try arguments.int("status")
            return Step(arguments.sourceDescription) { _ in
                status == 200 ? .success : .failure("Expected status \(status), got 200")
            }
        },
        StepDefinition(name: "succeed", summary: "Always passes") { arguments, _ throws(StepArgumentError) in
            arguments.isEmpty ? Step("succeed") { _ in .success } : Step.succeed(try arguments.scalar())
        },
        StepDefinition(name: "fail", summary: "Always fails", usage: ["reason"]) {
            arguments,
            _ throws(StepArgumentError) in
            Step.fail(try arguments.scalar())
        },
        StepDefinition(name: "wait", summary: "Waits", usage: ["seconds"]) { arguments, _ throws(StepArgumentError) in
            Step.wait(seconds: try arguments.doubleValue())
        },
        StepDefinition(name: "use fixture", summary: "Reads a fixture", usage: ["name"]) {
            arguments,
            context throws(StepArgumentError) in
            let name = try arguments.scalar()
            try context.checkFixture(name, at: arguments.location)
            return Step(arguments.sourceDescription) { _ in .success }
        },
        StepDefinition(name: "log", summary: "Logs an interpolated line", usage: ["text"]) {
            arguments,
            _ throws(StepArgumentError) in
            let text = try arguments.scalar()
            return Step(arguments.sourceDescription) { context in
                context.log(try context.interpolate(text))
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
