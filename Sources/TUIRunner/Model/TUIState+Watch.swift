import Scenarios

/// What `--watch` changes in the state: scenarios that are no longer loaded (or selected) leave the
/// tree; the others keep their last status until they run again.
extension TUIState {
    /// Keeps only the scenarios of `ids` in the tree, with their counts.
    mutating func keepOnly(_ ids: [ScenarioID]) {
        let kept = Set(ids)
        for id in order where !kept.contains(id) {
            if let old = scenarios[id] { count(old.status, in: id.file, by: -1) }
            counts.total -= 1
            countsByFile[id.file, default: Counts()].total -= 1
            scenarios[id] = nil
            inspections[id] = nil
            tries[id] = nil
            flaky[id] = nil
            if running == id { running = nil }
        }
        order.removeAll { !kept.contains($0) }
        let files = Set(order.map(\.file))
        for file in self.files where !files.contains(file) {
            featureNames[file] = nil
            countsByFile[file] = nil
        }
        self.files.removeAll { !files.contains($0) }
        refreshRows()
        normalizeSelection()
    }
}
