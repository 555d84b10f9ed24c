import Diagnostics
import Foundation
import Scenarios
import TestSupport
import Testing

struct StepArgumentsTests {
    let file = "x.yml"

    func arguments(_ yaml: String) throws -> StepArguments {
        let captured = Recorder<StepArguments>()
        var definition = StepDefinition("probe", summary: "") { _, _ in Step("probe") { _ in .success } }
        definition.build = { arguments, _ in
            captured.append(arguments)
            return Step("probe") { _ in .success }
        }
        var builder = StepRegistry.Builder()
        try builder.register(definition)
        let loader = ScenarioLoader(registry: builder.build())
        _ = try loader.load(yaml: "scenarios:\n  - scenario: A\n    steps:\n      - probe: \(yaml)\n", file: file)
        return try #require(captured.all.first)
    }

    @Test func theWholeArgumentIsReadAtItsNode() throws {
        let arguments = try arguments("{ count: three, map: 1 }")
        #expect(arguments.keys == ["count", "map"])
        #expect(
            throws: StepArgumentError(
                "Step 'probe' takes a single value, not a mapping.",
                at: SourceLocation(file: file, line: 4, column: 16)
            )
        ) { try arguments.scalar() }
        #expect(
            throws: StepArgumentError(
                "Step 'probe' takes a list, not a mapping.",
                at: SourceLocation(file: file, line: 4, column: 16)
            )
        ) { try arguments.list() }
    }

    @Test func convertsToPlainValuesKeepingKeyOrder() throws {
        let arguments = try arguments(#"{ z: ~, b: true, i: 12, d: 1.5, s: "12", l: [a, 2], m: { y: 1, x: 2 } }"#)
        #expect(
            arguments.value
                == .mapping([
                    .init("z", .null), .init("b", .bool(true)), .init("i", .int(12)), .init("d", .double(1.5)),
                    .init("s", .string("12")), .init("l", .list([.string("a"), .int(2)])),
                    .init("m", .mapping([.init("y", .int(1)), .init("x", .int(2))])),
                ])
        )
    }

    @Test func listsAndScalars() throws {
        #expect(try arguments("[restaurant, review]").list().map { try $0.scalar() } == ["restaurant", "review"])
        #expect(try arguments("0.25").scalar() == "0.25")
        #expect(try arguments("[a, b]").sourceDescription == "probe [a, b]")
    }

    @Test func plainValuesResolveInOrder() throws {
        let value = try arguments(#"{ b: [1, 2.5, "x\"y"], a: ~, c: { t: true } }"#).value
        #expect(
            value
                == .mapping([
                    .init("b", .list([.int(1), .double(2.5), .string("x\"y")])),
                    .init("a", .null),
                    .init("c", .mapping([.init("t", .bool(true))])),
                ])
        )
    }

    @Test func contextInterpolatesValueTrees() throws {
        let context = ScenarioContext(scenario: ScenarioID(file: "x.yml", name: "A"))
        context.bind("place", to: ["id": "7"])
        let value = ArgumentValue.mapping([
            .init("path", .string("/r/${place.id}")), .init("n", .int(3)),
            .init("list", .list([.string("${place.id}")])),
        ])
        #expect(
            try context.interpolate(value)
                == .mapping([
                    .init("path", .string("/r/7")), .init("n", .int(3)), .init("list", .list([.string("7")])),
                ])
        )
    }
}
