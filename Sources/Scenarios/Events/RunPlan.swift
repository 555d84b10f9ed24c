package import Diagnostics

/// Everything a run will attempt, sent first so that consumers can show the whole tree before it runs.
package struct RunPlan: Sendable, Hashable, Codable {
    /// One scenario of the plan, with all of its steps in run order (set-up, steps, tear-down).
    package struct PlannedScenario: Sendable, Hashable, Codable {
        package var id: ScenarioID
        package var feature: String
        /// Sorted tags.
        package var tags: [String]
        package var location: SourceLocation
        package var steps: [PlannedStep]
        /// Why the scenario is skipped without running (`skip:`), if it is.
        package var skip: String?
        /// The row's number when the scenario is a row of an outline (its ``location`` is the row's).
        package var row: Int?
        /// Where its item is written, for the worker it is handed to (``Scenario/itemSource``); not part
        /// of the events' JSON.
        package var itemSource: ItemSource?

        package init(
            id: ScenarioID,
            feature: String,
            tags: [String],
            location: SourceLocation,
            steps: [PlannedStep],
            skip: String? = nil,
            row: Int? = nil,
            itemSource: ItemSource? = nil
        ) {
            self.id = id
            self.feature = feature
            self.tags = tags
            self.location = location
            self.steps = steps
            self.skip = skip
            self.row = row
            self.itemSource = itemSource
        }

        private enum CodingKeys: String, CodingKey {
            case id, feature, tags, location, steps, skip, row
        }
    }

    /// One step of a planned scenario; its index in ``PlannedScenario/steps`` is its id in step events.
    package struct PlannedStep: Sendable, Hashable, Codable {
        package var description: String
        package var phase: StepPhase
        package var location: SourceLocation?

        package init(description: String, phase: StepPhase, location: SourceLocation?) {
            self.description = description
            self.phase = phase
            self.location = location
        }
    }

    package var scenarios: [PlannedScenario]

    package init(scenarios: [PlannedScenario]) {
        self.scenarios = scenarios
    }

    /// The planned scenario with this id.
    package func scenario(_ id: ScenarioID) -> PlannedScenario? {
        scenarios.first { $0.id == id }
    }
}
