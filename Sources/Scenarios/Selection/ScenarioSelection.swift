/// Which loaded scenarios run: a name filter, tags, and the failures of the previous run.
///
/// ```swift
/// let selection = try ScenarioSelection(filter: "review", tags: ["errors"])
/// let selected = selection.select(scenarios)
/// ```
package struct ScenarioSelection: Sendable {
    /// A regular expression the scenario's name must contain a match of.
    package var filter: String?
    /// When not empty, a scenario needs at least one of these tags.
    package var tags: Set<String>
    /// When set, only scenarios with these names (`--rerun-failed`).
    package var rerunFailed: Set<String>?

    /// Checks that `filter` is a valid regular expression.
    package init(filter: String? = nil, tags: Set<String> = [], rerunFailed: Set<String>? = nil)
        throws(ScenarioSelectionError)
    {
        if let filter {
            do {
                _ = try Regex(filter)
            } catch {
                throw .invalidFilter(filter)
            }
        }
        self.filter = filter
        self.tags = tags
        self.rerunFailed = rerunFailed
    }

    /// The scenarios that pass every criterion, in their original order.
    package func select(_ scenarios: [Scenario]) -> [Scenario] {
        let regex = filter.flatMap { try? Regex($0) }
        return scenarios.filter { scenario in
            if let regex, scenario.name.firstMatch(of: regex) == nil { return false }
            if !tags.isEmpty, tags.isDisjoint(with: scenario.tags) { return false }
            if let rerunFailed, !rerunFailed.contains(scenario.name) { return false }
            return true
        }
    }
}
