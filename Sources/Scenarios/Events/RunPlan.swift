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
        package var steps: PlannedSteps
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
            steps: PlannedSteps,
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

        /// What the plan says of `step`, run in `phase`.
        package init(_ step: Step, phase: StepPhase) {
            self.init(description: step.description, phase: phase, location: step.location)
        }
    }

    /// The steps of a planned scenario in run order, each with its phase: a list, or — in a plan made of
    /// loaded scenarios (``ScenarioRunner/plan(_:)``) — the scenario's ``ScenarioSteps``, read where the
    /// scenario and the run keep them. A plan of many scenarios keeps no second copy of their steps (a loaded
    /// suite keeps both for the whole run).
    package struct PlannedSteps: RandomAccessCollection, Sendable, Hashable, Codable, ExpressibleByArrayLiteral {
        private enum Storage: Sendable {
            case listed([PlannedStep])
            case run(ScenarioSteps)
        }

        private let storage: Storage

        /// These steps, in this order.
        package init(_ steps: [PlannedStep]) {
            storage = .listed(steps)
        }

        package init(arrayLiteral steps: PlannedStep...) {
            storage = .listed(steps)
        }

        /// What a scenario runs, as planned steps.
        package init(_ steps: ScenarioSteps) {
            storage = .run(steps)
        }

        package var startIndex: Int { 0 }

        package var endIndex: Int {
            switch storage {
            case .listed(let steps): steps.count
            case .run(let steps): steps.count
            }
        }

        package subscript(position: Int) -> PlannedStep {
            switch storage {
            case .listed(let steps): return steps[position]
            case .run(let steps):
                let (step, phase) = steps[position]
                return PlannedStep(step, phase: phase)
            }
        }

        package static func == (lhs: PlannedSteps, rhs: PlannedSteps) -> Bool {
            lhs.elementsEqual(rhs)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            for step in self { hasher.combine(step) }
        }

        /// Written as the list it stands for.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Array(self))
        }

        package init(from decoder: any Decoder) throws {
            storage = .listed(try decoder.singleValueContainer().decode([PlannedStep].self))
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
