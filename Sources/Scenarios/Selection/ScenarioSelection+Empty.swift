import Diagnostics

/// Saying why a selection is empty, and refusing tags no scenario has.
extension ScenarioSelection {
    /// Checks that every tag of the `--tag` expressions is a tag of some loaded scenario: a typo is a
    /// usage error with a suggestion, not a run of nothing.
    package func checkTags(in loaded: [Scenario]) throws(ScenarioSelectionError) {
        guard !tags.isEmpty else { return }
        var known: Set<String> = []
        for scenario in loaded { known.formUnion(scenario.tags) }
        for expression in tags {
            for tag in expression.tags.sorted() where !known.contains(tag) {
                throw .unknownTag(tag, expression: expression.description, loaded: loaded.count, known: known)
            }
        }
    }

    /// Why no scenario of `loaded` is selected, with a suggestion when one helps: `No scenario matches
    /// --filter 'revew' (21 loaded). Did you mean 'Posting a review'?`. `lineArguments` are the
    /// `PATH:LINE` arguments as written.
    package func emptyReason(loaded: [Scenario], lineArguments: [String] = []) -> String {
        var criteria = lineArguments
        if let filter { criteria.append("--filter '\(filter)'") }
        criteria += tags.map { expression in
            if case .tag = expression { return "--tag \(expression)" }
            return "--tag '\(expression)'"
        }
        if rerunFailed != nil { criteria.append("--rerun-failed") }
        var text = "No scenario matches \(criteria.joined(separator: " with ")) (\(loaded.count.groupedDigits) loaded)."
        if criteria.isEmpty { text = "No scenario was loaded." }
        if let rerunFailed {
            if rerunFailed.isEmpty {
                text += " The last run recorded no failures."
            } else if !loaded.contains(where: { FailureState.contains(rerunFailed, $0) }) {
                text += " None of the last run's \(rerunFailed.count) failures is among them."
            }
        } else if let filter {
            text += Suggestions.didYouMean(filter, in: loaded.map(\.name))
        }
        return text
    }
}
