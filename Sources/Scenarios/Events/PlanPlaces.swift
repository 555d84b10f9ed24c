import Synchronization

/// Where each scenario of a run's plan is, found from its id — what a tally or a reporter reads for
/// every scenario's events. Events come in the plan's order when one process runs the scenarios, so the
/// place after the last one found is tried first: one comparison of two ids (whose strings are the
/// plan's own, compared by reference) instead of hashing both strings. The first id out of that order (a
/// parallel run, a late report) builds an index of the plan, once, used from then on.
///
/// The plan's ids are distinct (loading rejects two scenarios of one name in a file; a path given twice
/// is read once).
///
/// ```swift
/// let places = PlanPlaces(plan.scenarios.map(\.id))
/// places.place(of: id)   // 0, then 1, … in order; any other id through the index
/// ```
package final class PlanPlaces: Sendable {
    private struct Search {
        /// The place tried first: the one after the last found.
        var next = 0
        /// Every id's place, built the first time an id is not at ``next``.
        var index: [ScenarioID: Int]?
    }

    package let ids: [ScenarioID]
    private let search = Mutex(Search())

    package init(_ ids: [ScenarioID]) {
        self.ids = ids
    }

    /// The place of `id` in the plan, or `nil` when the plan does not have it.
    package func place(of id: ScenarioID) -> Int? {
        search.withLock { search in
            let next = search.next
            if next < ids.count, ids[next] == id {
                search.next = next + 1
                return next
            }
            // The one found last, asked again (a scenario's next event, a reporter reading it).
            if next > 0, next <= ids.count, ids[next - 1] == id { return next - 1 }
            if search.index == nil {
                search.index = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
            guard let place = search.index?[id] else { return nil }
            search.next = place + 1
            return place
        }
    }
}
