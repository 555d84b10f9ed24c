import Diagnostics
import Scenarios
import Testing

struct RegistryTests {
    func definition(_ name: String) -> StepDefinition {
        StepDefinition(name, summary: "") { _, _ in Step(name) { _ in .success } }
    }

    @Test func looksUpIgnoringCaseAndRunsOfSpaces() throws {
        var builder = StepRegistry.Builder()
        try builder.register(definition("stub route"))
        let registry = builder.build()
        #expect(registry.definition(named: "Stub  Route")?.name == "stub route")
        #expect(registry.definition(named: "  STUB\troute ")?.name == "stub route")
        #expect(registry.definition(named: "stubroute") == nil)
    }

    @Test func rejectsDuplicateNames() throws {
        var builder = StepRegistry.Builder()
        try builder.register(definition("stub route"))
        #expect(throws: StepRegistryError.duplicateName("Stub Route")) {
            try builder.register(definition("Stub Route"))
        }
        #expect(throws: StepRegistryError.emptyName) { try builder.register(definition("  ")) }
        #expect(StepRegistryError.duplicateName("x").description == "A step named 'x' is already registered.")
    }

    @Test func keepsRegistrationOrderForNames() throws {
        var builder = StepRegistry.Builder()
        try builder.register(contentsOf: [definition("wait"), definition("fail"), definition("succeed")])
        #expect(builder.build().names == ["wait", "fail", "succeed"])
    }

    @Test func vocabularyChecksNamesWithSuggestions() {
        let vocabulary = Vocabulary([.entity: ["Review", "Restaurant"]])
        let location = SourceLocation(file: "x.yml", line: 3, column: 7)
        #expect(throws: StepArgumentError("Unknown entity 'Reveiw'. Did you mean 'Review'?", at: location)) {
            try vocabulary.check("Reveiw", is: .entity, at: location)
        }
        #expect(throws: Never.self) { try vocabulary.check("Review", is: .entity, at: location) }
        // A kind the app did not describe is not checked.
        #expect(throws: Never.self) { try vocabulary.check("anything", is: .factory, at: location) }
    }
}
