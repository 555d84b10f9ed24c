/// Every step a scenario runs, in run order, each with its phase: the run's default set-up, the file's
/// `set up`, the scenario's own steps, the file's `tear down`, the run's default tear-down and the leak
/// check. Kept as the lists they are loaded in (no list made for each scenario): what the runner runs and
/// what its plan says (``RunPlan/PlannedSteps``) read the one order.
package struct ScenarioSteps: RandomAccessCollection, Sendable {
    var defaultSetUp: [Step]
    var setUp: [Step]
    var steps: [Step]
    var tearDown: [Step]
    var defaultTearDown: [Step]
    var leakCheck: Step?

    package init(
        defaultSetUp: [Step] = [],
        setUp: [Step] = [],
        steps: [Step] = [],
        tearDown: [Step] = [],
        defaultTearDown: [Step] = [],
        leakCheck: Step? = nil
    ) {
        self.defaultSetUp = defaultSetUp
        self.setUp = setUp
        self.steps = steps
        self.tearDown = tearDown
        self.defaultTearDown = defaultTearDown
        self.leakCheck = leakCheck
    }

    package var startIndex: Int { 0 }

    package var endIndex: Int {
        defaultSetUp.count + setUp.count + steps.count + tearDown.count + defaultTearDown.count
            + (leakCheck == nil ? 0 : 1)
    }

    package subscript(position: Int) -> (step: Step, phase: StepPhase) {
        precondition(position >= 0 && position < endIndex, "a step's index out of range")
        var index = position
        if index < defaultSetUp.count { return (defaultSetUp[index], .setUp) }
        index -= defaultSetUp.count
        if index < setUp.count { return (setUp[index], .setUp) }
        index -= setUp.count
        if index < steps.count { return (steps[index], .steps) }
        index -= steps.count
        if index < tearDown.count { return (tearDown[index], .tearDown) }
        index -= tearDown.count
        if index < defaultTearDown.count { return (defaultTearDown[index], .tearDown) }
        // The one place left past the lists (the precondition): the leak check.
        guard let leakCheck else { preconditionFailure("a step's index out of range") }
        return (leakCheck, .leakCheck)
    }
}
