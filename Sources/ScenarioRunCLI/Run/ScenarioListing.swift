import Diagnostics
import Scenarios

/// The text of `--list`: every scenario with its steps (set-up and tear-down included).
enum ScenarioListing {
    static func text(_ plan: RunPlan) -> String {
        var out = ""
        var feature: String?
        for scenario in plan.scenarios {
            if scenario.feature != feature {
                feature = scenario.feature
                out += "\(scenario.feature) (\(scenario.id.file))\n"
            }
            let tags = scenario.tags.sorted().map { "@\($0)" }.joined(separator: " ")
            let skip = scenario.skip.map { "  (skipped: \(TerminalText.escaped($0, keepingLineBreaks: false)))" } ?? ""
            out += "  \(scenario.id.name)" + (tags.isEmpty ? "" : "  \(tags)") + skip + "\n"
            for step in scenario.steps {
                let location = step.location.map { "  \($0.fileAndLine)" } ?? ""
                out +=
                    "    \(paddedLabel(step.phase)) \(step.description)\(location)\n"
            }
        }
        out += "\(plan.scenarios.count) scenario\(plan.scenarios.count == 1 ? "" : "s")\n"
        return out
    }

    /// The first line of a shuffled run or listing.
    static func shuffleLine(_ shuffle: ScenarioShuffle) -> String {
        "Shuffled with seed \(shuffle.seed)\n"
    }

    /// The header of `--list` for a shard: `Shard 2/3: 7 of 20 scenarios` — this part's scenarios of
    /// those the other criteria select in the whole suite.
    static func shardLine(_ shard: Shard, selected: Int, of total: Int) -> String {
        "Shard \(shard): \(selected) of \(total) scenario\(total == 1 ? "" : "s")\n"
    }

    /// ``label(_:)`` padded with spaces to the widest label's nine columns (each is ASCII), without
    /// Foundation's `padding(toLength:)`: about a third of `--list`'s time for a large suite.
    static func paddedLabel(_ phase: StepPhase) -> String {
        let text = label(phase)
        return text + String(repeating: " ", count: max(0, 9 - text.utf8.count))
    }

    static func label(_ phase: StepPhase) -> String {
        switch phase {
        case .setUp: "set up"
        case .steps: "step"
        case .tearDown, .leakCheck: "tear down"
        }
    }
}
