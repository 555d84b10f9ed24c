/// Where in a scenario run a step sits; decided by the runner, not by the step.
package enum StepPhase: String, Sendable, Hashable, Codable {
    /// Default set-up steps and the file's `set up` steps.
    case setUp
    /// The scenario's own steps.
    case steps
    /// The file's `tear down` steps, then the default tear-down steps; they run even after a failure.
    case tearDown
    /// `check for leaks`, after the tear-down steps (`leaks:` in `scenario-run.yml`): skipped with them.
    case leakCheck
}

extension StepPhase {
    /// Tear-down and the leak check: they run after the scenario's steps, even after a failure, and are
    /// skipped together under `KIF_SKIP_TEAR_DOWN`.
    package var isAfterScenario: Bool {
        switch self {
        case .setUp, .steps: false
        case .tearDown, .leakCheck: true
        }
    }
}
