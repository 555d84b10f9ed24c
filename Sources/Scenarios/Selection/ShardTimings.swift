package import Foundation

/// How long each scenario took in an earlier run, read from its JUnit report (`--shard-timings FILE`):
/// what balances the shards by time instead of by count.
///
/// ```swift
/// let timings = try ShardTimings(junit: data, path: "previous.xml")
/// let shard = Shard(index: 2, total: 3, timings: timings)
/// ```
package struct ShardTimings: Sendable, Hashable {
    /// Seconds per scenario, by file and name (a testsuite's `file` attribute and a testcase's `name`).
    package var seconds: [ScenarioID: Double]

    package init(seconds: [ScenarioID: Double]) {
        self.seconds = seconds
    }

    /// The testcases' times of a JUnit report; a testsuite without a `file` attribute is skipped (its
    /// scenarios count as unknown), as are testcases without a time.
    package init(junit data: Data, path: String) throws(JUnitMergeError) {
        let root = try JUnitMerge.parse(data, path: path)
        let suites = root.name == "testsuite" ? [root] : root.elements.filter { $0.name == "testsuite" }
        var seconds: [ScenarioID: Double] = [:]
        for suite in suites {
            guard let file = suite.attributes["file"] else { continue }
            for testcase in suite.elements where testcase.name == "testcase" {
                guard let name = testcase.attributes["name"], let text = testcase.attributes["time"] else { continue }
                guard let time = Double(text), time.isFinite, time >= 0 else {
                    throw .notANumber(
                        path: path,
                        suite: suite.attributes["name"] ?? file,
                        attribute: "time",
                        value: text
                    )
                }
                seconds[ScenarioID(file: file, name: name)] = time
            }
        }
        self.seconds = seconds
    }

    /// The weight of each id: its time, or the median of the known times when it has none (1 s when
    /// none is known).
    func weights(_ ids: [ScenarioID]) -> [Double] {
        let known = ids.compactMap { seconds[$0] }.sorted()
        let median =
            known.isEmpty
            ? 1
            : known.count.isMultiple(of: 2)
                ? (known[known.count / 2 - 1] + known[known.count / 2]) / 2 : known[known.count / 2]
        return ids.map { seconds[$0] ?? median }
    }
}
