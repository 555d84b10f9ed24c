import Diagnostics
import Foundation
import Scenarios
import TestSupport
import Testing

/// A plan made of loaded scenarios keeps their step lists where they are (``RunPlan/PlannedSteps``), and a
/// step built once is shared by every place it is written (``Step``): both must read as the lists and
/// values they stand for.
struct PlannedStepsTests {
    typealias H = RunHarness
    let harness = RunHarness()

    func location(_ line: Int) -> Diagnostics.SourceLocation {
        Diagnostics.SourceLocation(file: "s.yml", line: line, column: 9)
    }

    /// A scenario with its file's set-up and tear-down around its own steps.
    func scenario(_ name: String, steps: Int) -> Scenario {
        var scenario = H.scenario(name, (0..<steps).map { H.step("step \($0)", line: 10 + $0) { _ in .success } })
        scenario.setUp = [H.step("file set-up", line: 2) { _ in .success }]
        scenario.tearDown = [
            H.step("file tear-down 1", line: 4) { _ in .success },
            H.step("file tear-down 2", line: 5) { _ in .success },
        ]
        return scenario
    }

    /// What the plan said of a scenario before it kept parts: one list, each part's steps in turn.
    func listed(_ scenario: Scenario, leakCheck: Bool) -> [RunPlan.PlannedStep] {
        var all = [RunPlan.PlannedStep(description: "set up the test environment", phase: .setUp, location: nil)]
        all += scenario.setUp.map {
            RunPlan.PlannedStep(description: $0.description, phase: .setUp, location: $0.location)
        }
        all += scenario.steps.map {
            RunPlan.PlannedStep(description: $0.description, phase: .steps, location: $0.location)
        }
        all += scenario.tearDown.map {
            RunPlan.PlannedStep(description: $0.description, phase: .tearDown, location: $0.location)
        }
        all.append(.init(description: "tear down the test environment", phase: .tearDown, location: nil))
        if leakCheck { all.append(.init(description: "check for leaks", phase: .leakCheck, location: nil)) }
        return all
    }

    @Test(arguments: [0, 1, 3], [false, true])
    func aPlannedScenarioReadsAsTheListOfItsParts(steps: Int, leakCheck: Bool) throws {
        let runner = try harness.runner(leakCheck: leakCheck ? { @Sendable _ in [] } : nil)
        let scenario = scenario("A", steps: steps)
        let planned = runner.plan([scenario]).scenarios[0].steps
        let expected = listed(scenario, leakCheck: leakCheck)
        #expect(planned.count == expected.count)
        #expect(Array(planned) == expected)
        // Every index, read on its own, in both directions.
        for index in expected.indices { #expect(planned[index] == expected[index]) }
        for index in expected.indices.reversed() { #expect(planned[index] == expected[index]) }
        #expect(planned == RunPlan.PlannedSteps(expected))
        #expect(planned.hashValue == RunPlan.PlannedSteps(expected).hashValue)
        #expect(planned != RunPlan.PlannedSteps(expected.dropLast()))
    }

    @Test func aPlanOfPartsIsWrittenAsTheListItStandsFor() throws {
        let runner = try harness.runner()
        let scenario = scenario("A", steps: 2)
        let planned = runner.plan([scenario])
        var listedPlan = planned
        listedPlan.scenarios[0].steps = RunPlan.PlannedSteps(listed(scenario, leakCheck: false))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let parts = try encoder.encode(planned)
        #expect(parts == (try encoder.encode(listedPlan)))
        let decoded = try JSONDecoder().decode(RunPlan.self, from: parts)
        #expect(decoded == planned)
        #expect(Array(decoded.scenarios[0].steps) == Array(planned.scenarios[0].steps))
    }

    @Test func scenariosSharingAStepListKeepTheirOwnPlans() throws {
        let runner = try harness.runner()
        let a = scenario("A", steps: 2)
        var b = a
        b.name = "B"
        b.steps[1].description = "changed in B"
        let plan = runner.plan([a, b])
        #expect(plan.scenarios[0].steps[3].description == "step 1")
        #expect(plan.scenarios[1].steps[3].description == "changed in B")
        #expect(a.steps[1].description == "step 1")
    }

    @Test func aStepSharedByItsCopiesIsStillAValue() async throws {
        let original = Step("original", location: location(3), timeout: .seconds(2)) { _ in .success }
        var copy = original
        copy.description = "copy"
        copy.location = location(4)
        copy.timeout = .seconds(5)
        copy.settles = true
        copy.boundEntity = "Review"
        copy.action = { _ in .failure("the copy's") }
        #expect(original.description == "original")
        #expect(original.location == location(3))
        #expect(original.timeout == .seconds(2))
        #expect(!original.settles)
        #expect(original.boundEntity == nil)
        #expect(copy.description == "copy")
        #expect(copy.location == location(4))
        #expect(copy.timeout == .seconds(5))
        #expect(copy.settles)
        #expect(copy.boundEntity == "Review")
        // Each keeps its own action.
        let context = ScenarioContext(scenario: ScenarioID(file: "s.yml", name: "A"))
        #expect(try await original.action(context) == .success)
        #expect(try await copy.action(context) == .failure("the copy's"))
        // A marked copy leaves the step it came from as it was.
        let settling = original.givingUpWhenSettled()
        #expect(settling.settles && !original.settles)
        #expect(settling.description == "original")
    }
}
