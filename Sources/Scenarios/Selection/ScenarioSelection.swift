/// Which loaded scenarios run, and in which order: a shard, `PATH:LINE` arguments, a name filter, tag
/// expressions, the failures of the previous run, and a shuffle.
///
/// ```swift
/// let selection = try ScenarioSelection(filter: "review", tags: ["errors"], shard: Shard(index: 2, total: 3))
/// let selected = selection.select(scenarios)
/// ```
package struct ScenarioSelection: Sendable {
    /// A regular expression the scenario's name must contain a match of, ignoring case (as the live
    /// runner's `/` filter does).
    package var filter: String?
    /// When not empty, a scenario must match at least one of these expressions (repeated `--tag`s are
    /// any-of, as a single `--tag` used to be).
    package var tags: [TagExpression]
    /// When set, only the scenarios `PATH:LINE` arguments chose in the files they named.
    package var lines: LineSelection?
    /// When set, only these scenarios, by file and name (`--rerun-failed`, ``FailureState``'s keys).
    package var rerunFailed: Set<ScenarioID>?
    /// When set, only this part of the loaded scenarios (`--shard`), cut before any other criterion.
    package var shard: Shard?
    /// When set, the selected scenarios run in this order (`--shuffle`).
    package var shuffle: ScenarioShuffle?

    /// Checks that `filter` is a valid regular expression.
    package init(
        filter: String? = nil,
        tags: [TagExpression] = [],
        lines: LineSelection? = nil,
        rerunFailed: Set<ScenarioID>? = nil,
        shard: Shard? = nil,
        shuffle: ScenarioShuffle? = nil
    ) throws(ScenarioSelectionError) {
        if let filter {
            do {
                _ = try Regex(filter)
            } catch {
                throw .invalidFilter(filter)
            }
        }
        self.filter = filter
        self.tags = tags
        self.lines = lines
        self.rerunFailed = rerunFailed
        self.shard = shard
        self.shuffle = shuffle
    }

    /// The scenarios that run: the shard's part of all of `scenarios` (so that a scenario's part does
    /// not depend on the other criteria), those of it that pass every criterion, in their original
    /// order or shuffled.
    package func select(_ scenarios: [Scenario]) -> [Scenario] {
        let part = shard?.select(scenarios) ?? scenarios
        let chosen = matching(part)
        return shuffle?.apply(chosen) ?? chosen
    }

    /// The scenarios that pass every criterion but the shard, in their original order.
    package func matching(_ scenarios: [Scenario]) -> [Scenario] {
        // Nothing to choose by: the same array, not a copy of it (a run keeps its selection to the end).
        if filter == nil, lines == nil, tags.isEmpty, rerunFailed == nil { return scenarios }
        let regex = filter.flatMap { try? Regex($0).ignoresCase() }
        return scenarios.filter { scenario in
            if let regex, scenario.name.firstMatch(of: regex) == nil { return false }
            if let lines, !lines.contains(scenario) { return false }
            if !tags.isEmpty, !tags.contains(where: { $0.matches(scenario.tags) }) { return false }
            if let rerunFailed, !FailureState.contains(rerunFailed, scenario) { return false }
            return true
        }
    }
}
