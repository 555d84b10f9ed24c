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
    /// loaded scenarios (``ScenarioRunner/plan(_:)``) — the scenario's own step lists where the scenario
    /// keeps them, between the run's default set-up and tear-down kept once for every scenario. A plan of
    /// many scenarios keeps no second copy of their steps (a loaded suite keeps both for the whole run).
    package struct PlannedSteps: RandomAccessCollection, Sendable, Hashable, Codable, ExpressibleByArrayLiteral {
        private enum Storage: Sendable {
            case listed([PlannedStep])
            case parts(Parts)
        }

        /// A scenario's steps in the parts they are kept in: the shared `head` and `tail` already planned,
        /// the scenario's (and its file's) step lists as loaded.
        private struct Parts: Sendable {
            var head: [PlannedStep]
            var setUp: [Step]
            var steps: [Step]
            var tearDown: [Step]
            var tail: [PlannedStep]

            var count: Int { head.count + setUp.count + steps.count + tearDown.count + tail.count }

            subscript(position: Int) -> PlannedStep {
                var index = position
                if index < head.count { return head[index] }
                index -= head.count
                if index < setUp.count { return PlannedStep(setUp[index], phase: .setUp) }
                index -= setUp.count
                if index < steps.count { return PlannedStep(steps[index], phase: .steps) }
                index -= steps.count
                if index < tearDown.count { return PlannedStep(tearDown[index], phase: .tearDown) }
                return tail[index - tearDown.count]
            }
        }

        private let storage: Storage

        /// These steps, in this order.
        package init(_ steps: [PlannedStep]) {
            storage = .listed(steps)
        }

        package init(arrayLiteral steps: PlannedStep...) {
            storage = .listed(steps)
        }

        /// A scenario's steps: `head` (planned once, the default set-up), the file's `setUp`, the scenario's
        /// `steps`, the file's `tearDown`, then `tail` (planned once, the default tear-down and what follows).
        package init(head: [PlannedStep], setUp: [Step], steps: [Step], tearDown: [Step], tail: [PlannedStep]) {
            storage = .parts(Parts(head: head, setUp: setUp, steps: steps, tearDown: tearDown, tail: tail))
        }

        package var startIndex: Int { 0 }

        package var endIndex: Int {
            switch storage {
            case .listed(let steps): steps.count
            case .parts(let parts): parts.count
            }
        }

        package subscript(position: Int) -> PlannedStep {
            precondition(position >= 0 && position < endIndex, "a planned step's index out of range")
            switch storage {
            case .listed(let steps): return steps[position]
            case .parts(let parts): return parts[position]
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
