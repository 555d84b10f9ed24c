public import Diagnostics

/// Everything a run will attempt, sent first so that consumers can show the whole tree before it runs.
public struct RunPlan: Sendable, Hashable, Codable {
    /// One scenario of the plan, with all of its steps in run order (set-up, steps, tear-down).
    public struct PlannedScenario: Sendable, Hashable, Codable {
        public var id: ScenarioID
        public var feature: String
        /// Sorted tags.
        public var tags: [String]
        public var location: SourceLocation
        public var steps: [PlannedStep]

        public init(id: ScenarioID, feature: String, tags: [String], location: SourceLocation, steps: [PlannedStep]) {
            self.id = id
            self.feature = feature
            self.tags = tags
            self.location = location
            self.steps = steps
        }
    }

    /// One step of a planned scenario; its index in ``PlannedScenario/steps`` is its id in step events.
    public struct PlannedStep: Sendable, Hashable, Codable {
        public var description: String
        public var phase: StepPhase
        public var location: SourceLocation?

        public init(description: String, phase: StepPhase, location: SourceLocation?) {
            self.description = description
            self.phase = phase
            self.location = location
        }
    }

    public var scenarios: [PlannedScenario]

    public init(scenarios: [PlannedScenario]) {
        self.scenarios = scenarios
    }

    /// The planned scenario with this id.
    public func scenario(_ id: ScenarioID) -> PlannedScenario? {
        scenarios.first { $0.id == id }
    }
}
