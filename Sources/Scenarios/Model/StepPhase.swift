/// Where in a scenario run a step sits; decided by the runner, not by the step.
package enum StepPhase: String, Sendable, Hashable, Codable {
    /// Default set-up steps and the file's `set up` steps.
    case setUp
    /// The scenario's own steps.
    case steps
    /// Default tear-down steps; they run even after a failure.
    case tearDown
}
