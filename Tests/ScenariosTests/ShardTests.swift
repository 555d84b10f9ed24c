import Diagnostics
import Foundation
import Scenarios
import Testing

struct ShardTests {
    static func ids(_ count: Int, prefix: String = "Scenario") -> [ScenarioID] {
        (0..<count).map { ScenarioID(file: "Scenarios/f\($0 % 7).yml", name: "\(prefix) \($0)") }
    }

    // MARK: Parsing

    @Test func parsesKOverN() throws {
        #expect(try Shard(parsing: "2/3") == Shard(index: 2, total: 3))
        #expect(try Shard(parsing: "1/1") == Shard(index: 1, total: 1))
        #expect(try Shard(parsing: "10/10").description == "10/10")
    }

    @Test func invalidShardsSayWhatIsExpected() {
        for text in ["2-3", "2/", "/3", "a/b", " 1/3", "+1/3", "1/3/5", "", "1/9999999999"] {
            #expect(throws: ShardError.malformed(text)) { try Shard(parsing: text) }
        }
        #expect(
            ShardError.malformed("2-3").description
                == "Invalid shard '2-3': expected K/N, part K of N parts, e.g. --shard 2/3."
        )
        #expect(throws: ShardError.outOfRange("0/3", total: 3)) { try Shard(parsing: "0/3") }
        #expect(throws: ShardError.outOfRange("4/3", total: 3)) { try Shard(parsing: "4/3") }
        #expect(ShardError.outOfRange("4/3", total: 3).description == "Invalid shard '4/3': K must be from 1 to 3.")
        #expect(throws: ShardError.outOfRange("1/0", total: 0)) { try Shard(parsing: "1/0") }
        #expect(ShardError.outOfRange("1/0", total: 0).description == "Invalid shard '1/0': N must be 1 or more.")
    }

    // MARK: CI variables

    @Test func ciVariablesSelectThePart() throws {
        #expect(try Shard(environment: [:]) == nil)
        #expect(try Shard(environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]) == Shard(index: 2, total: 3))
        #expect(
            try Shard(environment: ["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "3"]) == Shard(index: 1, total: 3)
        )
        #expect(
            try Shard(environment: ["BUILDKITE_PARALLEL_JOB": "3", "BUILDKITE_PARALLEL_JOB_COUNT": "4"])
                == Shard(index: 4, total: 4)
        )
        // GitLab sets CI_NODE_TOTAL=1 on every job without `parallel:`; CircleCI sets 0 of 1.
        #expect(try Shard(environment: ["CI_NODE_TOTAL": "1"]) == nil)
        #expect(
            try Shard(environment: ["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1"]) == Shard(index: 1, total: 1)
        )
        #expect(try Shard(environment: ["CI_NODE_INDEX": "", "CI_NODE_TOTAL": ""]) == nil)
        // GitLab's pair comes first; a total of 1 without an index lets the next pair decide.
        #expect(
            try Shard(environment: ["CI_NODE_TOTAL": "1", "CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"])
                == Shard(index: 2, total: 2)
        )
    }

    @Test func invalidCIVariablesAreErrorsNamingTheVariable() {
        func message(_ environment: [String: String]) -> String? {
            do {
                _ = try Shard(environment: environment)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(
            message(["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"])
                == "Invalid CI_NODE_INDEX '0': expected 1 to 3 (CI_NODE_INDEX counts from 1; CI_NODE_TOTAL is 3)."
        )
        #expect(
            message(["CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "3"])
                == "Invalid CIRCLE_NODE_INDEX '3': expected 0 to 2 (CIRCLE_NODE_INDEX counts from 0; CIRCLE_NODE_TOTAL is 3)."
        )
        #expect(
            message(["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "many"])
                == "Invalid BUILDKITE_PARALLEL_JOB_COUNT 'many': expected the number of parallel jobs, 1 or more."
        )
        #expect(
            message(["CI_NODE_TOTAL": "0"])
                == "Invalid CI_NODE_TOTAL '0': expected the number of parallel jobs, 1 or more."
        )
        #expect(
            message(["CI_NODE_TOTAL": "3"])
                == "CI_NODE_TOTAL is set but CI_NODE_INDEX is not: both are needed to pick this job's shard."
        )
        #expect(
            message(["CIRCLE_NODE_INDEX": "2"])
                == "CIRCLE_NODE_INDEX is set but CIRCLE_NODE_TOTAL is not: both are needed to pick this job's shard."
        )
    }

    // MARK: Assignment

    @Test func theHashIsPinned() {
        // FNV-1a of "file\0name", then SplitMix64's finaliser: the same on every platform and run.
        #expect(
            Shard.stableHash(ScenarioID(file: "Scenarios/reviews.yml", name: "Posting a review"))
                == 0x2A6C_E289_3DCA_C2CA
        )
    }

    @Test func everyScenarioIsInExactlyOnePartAndPartsDifferByAtMostOne() {
        for count in 0...40 {
            let ids = Self.ids(count)
            for total in 1...7 {
                let parts = Shard.parts(of: ids, count: total)
                #expect(parts.count == count)
                #expect(parts.allSatisfy { (1...total).contains($0) })
                let sizes = (1...total).map { part in parts.count { $0 == part } }
                #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(count) scenarios in \(total) parts: \(sizes)")
                #expect(sizes.reduce(0, +) == count)
            }
        }
    }

    @Test func partsDoNotDependOnTheOrderScenariosAreLoadedIn() {
        let ids = Self.ids(40)
        let parts = Dictionary(uniqueKeysWithValues: zip(ids, Shard.parts(of: ids, count: 4)))
        let reversed = Array(ids.reversed())
        let again = Dictionary(uniqueKeysWithValues: zip(reversed, Shard.parts(of: reversed, count: 4)))
        #expect(parts == again)
    }

    /// Adding one scenario moves each of the N − 1 cuts by at most one place: at most N − 1 others
    /// change part, whatever the suite's size. Measured: the mean over 12 suite sizes from 10 to 300 per N.
    @Test func addingOrRemovingAScenarioMovesAtMostNMinusOneOthers() {
        var meanMoved: [Int: Double] = [:]
        for total in 2...8 {
            var moved = 0
            var trials = 0
            for count in [10, 11, 17, 32, 50, 64, 99, 100, 101, 128, 255, 300] {
                let ids = Self.ids(count)
                let before = Dictionary(uniqueKeysWithValues: zip(ids, Shard.parts(of: ids, count: total)))
                let added = ids + [ScenarioID(file: "Scenarios/new.yml", name: "Added \(count)")]
                let after = Shard.parts(of: added, count: total)
                let changed = zip(ids, after).count { before[$0.0] != $0.1 }
                #expect(changed <= total - 1, "\(count) + 1 scenarios in \(total) parts: \(changed) moved")
                var removed = ids
                removed.remove(at: count / 2)
                let afterRemoval = Shard.parts(of: removed, count: total)
                #expect(zip(removed, afterRemoval).count { before[$0.0] != $0.1 } <= total - 1)
                moved += changed
                trials += 1
            }
            meanMoved[total] = Double(moved) / Double(trials)
        }
        // About N/3 on average (each cut k is crossed with probability ≈ 2·k/N·(1 − k/N)).
        for (total, mean) in meanMoved { #expect(mean <= Double(total) / 2, "N = \(total): \(mean) moved on average") }
    }

    @Test func theShardIsCutBeforeTheOtherCriteria() throws {
        let scenarios = Self.ids(30).enumerated().map { offset, id in
            Scenario(
                name: id.name,
                tags: offset.isMultiple(of: 3) ? ["smoke"] : [],
                location: SourceLocation(file: id.file, line: offset + 1, column: 1),
                feature: id.file,
                file: id.file,
                steps: []
            )
        }
        var union: [String] = []
        for index in 1...3 {
            let shard = Shard(index: index, total: 3)
            let selected = try ScenarioSelection(tags: ["smoke"], shard: shard).select(scenarios)
            // A scenario's part is the same with or without the tag.
            #expect(selected.map(\.name) == shard.select(scenarios).filter { $0.tags.contains("smoke") }.map(\.name))
            union += selected.map(\.name)
        }
        #expect(union.sorted() == (try ScenarioSelection(tags: ["smoke"]).select(scenarios)).map(\.name).sorted())
        #expect(Set(union).count == union.count)
    }

    // MARK: --shard-timings

    @Test func timingsBalanceByTimeLongestFirst() {
        let ids = (1...6).map { ScenarioID(file: "f.yml", name: "S\($0)") }
        // 8 s, then 7, 6, 5 alternate to the lighter part, then the two 1 s ones.
        let parts = Shard.parts(of: ids, count: 2, weights: [8, 7, 6, 5, 1, 1])
        var time = [0.0, 0.0]
        for (part, weight) in zip(parts, [8.0, 7, 6, 5, 1, 1]) { time[part - 1] += weight }
        #expect(time == [14, 14])
        #expect(parts[0] == 1 && parts[1] == 2)
        for count in [0, 1, 5, 30] {
            let ids = Self.ids(count)
            let weights = ids.indices.map { Double($0 % 4) + 0.5 }
            for total in 1...4 {
                let parts = Shard.parts(of: ids, count: total, weights: weights)
                #expect(parts.allSatisfy { (1...total).contains($0) })
                #expect(parts == Shard.parts(of: ids, count: total, weights: weights), "deterministic")
            }
        }
    }

    @Test func timingsAreReadFromAJUnitReportWithTheMedianForUnknownScenarios() throws {
        let xml = """
            <testsuites>
              <testsuite name="Reviews" file="Scenarios/reviews.yml" tests="3">
                <testcase classname="Reviews" name="Posting" time="1.000"/>
                <testcase classname="Reviews" name="Rejected" time="3.000"/>
                <testcase classname="Reviews" name="Offline" time="10.000"/>
              </testsuite>
              <testsuite name="No file" tests="1"><testcase name="Ignored" time="99"/></testsuite>
            </testsuites>
            """
        let timings = try ShardTimings(junit: Data(xml.utf8), path: "previous.xml")
        #expect(timings.seconds.count == 3)
        #expect(timings.seconds[ScenarioID(file: "Scenarios/reviews.yml", name: "Rejected")] == 3)
        let known = ScenarioID(file: "Scenarios/reviews.yml", name: "Offline")
        let unknown = ScenarioID(file: "Scenarios/new.yml", name: "New")
        let selected = [
            ScenarioID(file: "Scenarios/reviews.yml", name: "Posting"), known, unknown,
            ScenarioID(file: "Scenarios/reviews.yml", name: "Rejected"),
        ]
        // The median of the selected known times (1, 3, 10) is 3.
        let shard = Shard(index: 1, total: 2, timings: timings)
        #expect(shard.timings?.seconds[unknown] == nil)
        let scenarios = selected.map {
            Scenario(
                name: $0.name,
                tags: [],
                location: SourceLocation(file: $0.file, line: 1, column: 1),
                feature: "F",
                file: $0.file,
                steps: []
            )
        }
        let first = shard.select(scenarios).map(\.name)
        let second = Shard(index: 2, total: 2, timings: timings).select(scenarios).map(\.name)
        #expect(first == ["Offline"])
        #expect(second == ["Posting", "New", "Rejected"])
        #expect(throws: JUnitMergeError.notANumber(path: "t.xml", suite: "A", attribute: "time", value: "soon")) {
            try ShardTimings(
                junit: Data(#"<testsuite name="A" file="a.yml"><testcase name="x" time="soon"/></testsuite>"#.utf8),
                path: "t.xml"
            )
        }
    }

    @Test func selectionReportsItsOrderAndShard() throws {
        let selection = try ScenarioSelection(shard: Shard(index: 2, total: 3), shuffle: ScenarioShuffle(seed: 42))
        #expect(
            selection.reportProperties == [
                JUnitProperty(name: "shuffle seed", value: "42"), JUnitProperty(name: "shard", value: "2/3"),
            ]
        )
        #expect(selection.orderNote == "seed 42  shard 2/3")
        #expect(try ScenarioSelection().reportProperties.isEmpty)
        #expect(try ScenarioSelection().orderNote == nil)
    }
}
