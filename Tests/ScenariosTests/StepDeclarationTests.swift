import Diagnostics
import Foundation
import Scenarios
import TestSupport
import Testing

/// Steps declared once (SPEC §17): forms of typed arguments give the load-time checks, `${…}`
/// resolution and conversion at run time, usage text and the catalogue.
struct StepDeclarationTests {
    static let count = StepArgument<Int>.required("count", .integer(in: 0...10), "How many")
    static let name = StepArgument<String>.required("name", .string)
    static let delay = StepArgument<Duration>.optional("delay", .seconds, default: .seconds(1))
    static let mode = StepArgument<String?>.optional("mode", .choice(["fast", "slow"]))
    static let flags = StepArgument<[String]>.required("flags", .list(of: .choice(["a", "b"])))

    /// Loads one scenario whose single step is `probe: YAML`, capturing what its definition received.
    func load(_ yaml: String, forms: [ArgumentForm], bindingFirst: Bool = false) throws -> StepInput {
        let captured = Recorder<StepInput>()
        let definition = StepDefinition("probe", summary: "A probe", forms: forms) { input, _ in
            captured.append(input)
            return Step("probe") { _ in .success }
        }
        let binder = StepDefinition("bind", summary: "Binds a name", forms: [.mapping()], bindsName: true) { _, _ in
            Step("bind") { _ in .success }
        }
        var builder = StepRegistry.Builder()
        try builder.register(definition)
        try builder.register(binder)
        let loader = ScenarioLoader(registry: builder.build())
        _ = try loader.load(
            yaml: "scenarios:\n  - scenario: A\n    steps:\n" + (bindingFirst ? "      - bind: { as: size }\n" : "")
                + "      - probe: \(yaml)\n",
            file: "x.yml"
        )
        return try #require(captured.all.first)
    }

    func loadError(_ yaml: String, forms: [ArgumentForm]) -> String? {
        do {
            _ = try load(yaml, forms: forms)
            return nil
        } catch let error as DiagnosticList {
            return error.diagnostics.first.map { "\($0.location): \($0.message)" }
        } catch {
            return "\(error)"
        }
    }

    @Test func valuesArriveTypedWithDefaults() throws {
        let input = try load(
            "{ count: 3, name: Ada }",
            forms: [.mapping(Self.count.any, Self.name.any, Self.delay.any)]
        )
        #expect(input[Self.count].literal == 3)
        #expect(input[Self.name].literal == "Ada")
        #expect(input[Self.delay].literal == .seconds(1))
        #expect(!input.has(Self.delay))
    }

    /// A default's text, made when the catalogue reads it: the value's own text; none for an argument that
    /// must be written or reads as nothing when left out.
    @Test func aDefaultReadsAsTheTextOfItsValue() {
        #expect(Self.delay.any.defaultText == "\(Duration.seconds(1))")
        #expect(StepArgument<Int>.optional("copies", .integer(in: 1...9), default: 3).any.defaultText == "3")
        #expect(Self.count.any.defaultText == nil)
        #expect(Self.mode.any.defaultText == nil)
    }

    @Test func aReferenceIsConvertedWhenTheStepRunsOrFailsAtItsLocation() throws {
        let input = try load(
            #"{ count: "${size}", name: x }"#,
            forms: [.mapping(Self.count.any, Self.name.any)],
            bindingFirst: true
        )
        #expect(input[Self.count].literal == nil)
        let context = ScenarioContext(scenario: ScenarioID(file: "x.yml", name: "A"))
        context.bind("size", to: "7")
        #expect(try input[Self.count].resolve(in: context) == 7)
        context.bind("size", to: "seven")
        #expect(
            throws: StepArgumentError(
                "'count' of step 'probe' takes an integer from 0 to 10, not 'seven' (from '${size}').",
                at: SourceLocation(file: "x.yml", line: 5, column: 25)
            )
        ) { try input[Self.count].resolve(in: context) }
    }

    @Test func badValuesAreLocatedLoadErrors() {
        let forms: [ArgumentForm] = [.mapping(Self.count.any, Self.name.any, Self.mode.any)]
        #expect(
            loadError("{ count: 11, name: x }", forms: forms)
                == "x.yml:4:25: 'count' of step 'probe' takes an integer from 0 to 10, not '11'."
        )
        #expect(
            loadError("{ count: 1, name: x, mode: fsat }", forms: forms)
                == "x.yml:4:43: 'mode' of step 'probe' takes one of 'fast', 'slow', not 'fsat'. Did you mean 'fast'?"
        )
        #expect(
            loadError("{ count: 1, nmae: x }", forms: forms)
                == "x.yml:4:28: Unknown argument 'nmae' for step 'probe'. Did you mean 'name'?"
        )
        #expect(loadError("{ count: 1 }", forms: forms) == "x.yml:4:16: Step 'probe' needs 'name'.")
        #expect(loadError("[1]", forms: forms) == "x.yml:4:16: Step 'probe' takes {count, name, mode?}, not a list.")
    }

    @Test func theFormThatFitsIsChosenAndItsIndexGiven() throws {
        let forms: [ArgumentForm] = [.value(Self.name), .mapping(Self.count.any, Self.name.any), .list(Self.flags)]
        #expect(try load("Ada", forms: forms).form == 0)
        #expect(try load("{ count: 1, name: Ada }", forms: forms).form == 1)
        let list = try load("[a, B]", forms: forms)
        #expect(list.form == 2)
        #expect(list[Self.flags].literal == ["a", "b"])
        #expect(forms.map(\.description) == ["NAME", "{count, name}", "[FLAGS, ...]"])
    }

    @Test func aDefinitionsUsageComesFromItsForms() {
        let definition = StepDefinition(
            "probe",
            summary: "A probe",
            forms: [.none, .mapping(Self.count.any, Self.mode.any)]
        ) { _, _ in Step("probe") { _ in .success } }
        #expect(definition.usage == ["nothing", "{count, mode?}"])
    }
}
