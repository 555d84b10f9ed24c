import Foundation
import TestSupport
import Testing

/// `--shuffle`, `--shard`, the CI's parallel-job variables and `merge-junit`, end to end on the built binary.
/// Serialized: each test starts several runs with their workers, and side by side they starved the timed
/// tests of other suites on a two-core machine.
@Suite(.serialized)
struct OrderAndShardTests {
    /// Three features of five scenarios each, all passing; two of each file tagged `smoke`.
    static func project() throws -> URL {
        var files: [String: String] = [:]
        for feature in ["Alpha", "Beta", "Gamma"] {
            var text = "feature: \(feature)\n\nscenarios:\n"
            for number in 1...5 {
                text += "  - scenario: \(feature) \(number)\n"
                if number <= 2 { text += "    tags: [smoke]\n" }
                text += "    steps: [succeed]\n"
            }
            files["Scenarios/\(feature.lowercased()).yml"] = text
        }
        return try CLI.project(files)
    }

    static let allNames = ["Alpha", "Beta", "Gamma"].flatMap { feature in (1...5).map { "\(feature) \($0)" } }

    /// The scenarios of a headless run's lines, in the order they were printed.
    static func ran(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("✓ "), let time = line.range(of: " (", options: .backwards) else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 2)..<time.lowerBound])
        }
    }

    /// The scenarios `--list` shows, in its order.
    static func listed(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  @").first
        }
    }

    /// `classname/name` of every testcase of a JUnit report, in the report's order.
    static func testcases(_ xml: String) -> [String] {
        xml.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: /<testcase classname="([^"]*)" name="([^"]*)"/) else { return nil }
            return "\(match.1)/\(match.2)"
        }
    }

    // MARK: --shuffle

    @Test func shuffleSaysItsSeedFirstAndRepeatsTheOrderForTheSameSeed() async throws {
        let project = try Self.project()
        let first = try await CLI.run(["--ci", "--shuffle", "42"], directory: project)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.hasPrefix("Shuffled with seed 42\n"), "\(first.stdout)")
        #expect(first.stdout.hasSuffix("15 passed, 0 failed\n"))
        let order = Self.ran(first.stdout)
        #expect(order.sorted() == Self.allNames.sorted())
        #expect(order != Self.allNames, "shuffled across files")

        let again = try await CLI.run(["--ci", "--shuffle=42"], directory: project)
        #expect(Self.ran(again.stdout) == order)
        let other = try await CLI.run(["--ci", "--shuffle", "7"], directory: project)
        #expect(other.stdout.hasPrefix("Shuffled with seed 7\n"))
        #expect(Self.ran(other.stdout) != order)
        #expect(Self.ran(other.stdout).sorted() == Self.allNames.sorted())
    }

    @Test func shuffleWithoutASeedPicksOneThatRepeatsTheRun() async throws {
        let project = try Self.project()
        // The next argument is a path, not a seed: only an unsigned integer is taken as the seed.
        let picked = try await CLI.run(["--ci", "--shuffle", "Scenarios"], directory: project)
        #expect(picked.status == 0, "\(picked.stderr)")
        let firstLine = picked.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let seed = try #require(firstLine.firstMatch(of: /^Shuffled with seed (\d{1,8})$/)).1
        let repeated = try await CLI.run(["--ci", "--shuffle", String(seed)], directory: project)
        #expect(Self.ran(repeated.stdout) == Self.ran(picked.stdout))
        #expect(Self.ran(picked.stdout).count == 15)
    }

    @Test func anInvalidSeedIsAUsageError() async throws {
        let project = try Self.project()
        let result = try await CLI.run(["--ci", "--shuffle=-3"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "Error: Invalid seed '-3' for --shuffle: expected an unsigned integer such as 42, or nothing for a random seed.\n"
            ),
            "\(result.stderr)"
        )
        #expect(result.stdout.isEmpty)
    }

    /// With `--jobs 2` lines print as scenarios finish, so the order is observed where it is decided: the
    /// plan (the JUnit report's testcases, `--list`), which is also the order the workers are handed
    /// scenarios in (`ParallelSchedule`).
    @Test func theSameSeedGivesTheSameOrderWithJobsAndList() async throws {
        let project = try Self.project()
        let serialReport = project.appendingPathComponent("serial.xml").path
        let parallelReport = project.appendingPathComponent("parallel.xml").path
        let serial = try await CLI.run(["--ci", "--shuffle", "42", "--junit", serialReport], directory: project)
        let parallel = try await CLI.run(
            ["--ci", "--shuffle", "42", "--jobs", "2", "--junit", parallelReport],
            directory: project
        )
        #expect(parallel.status == 0, "\(parallel.stdout)\(parallel.stderr)")
        #expect(parallel.stdout.hasPrefix("Shuffled with seed 42\n"))
        #expect(Set(Self.ran(parallel.stdout)) == Set(Self.allNames))
        let serialCases = Self.testcases(try String(contentsOfFile: serialReport, encoding: .utf8))
        #expect(serialCases.count == 15)
        #expect(Self.testcases(try String(contentsOfFile: parallelReport, encoding: .utf8)) == serialCases)

        let list = try await CLI.run(["--list", "--shuffle", "42"], directory: project)
        #expect(list.stdout.hasPrefix("Shuffled with seed 42\n"))
        #expect(Self.listed(list.stdout) == Self.ran(serial.stdout))
        let report = try String(contentsOfFile: serialReport, encoding: .utf8)
        #expect(report.contains(#"      <property name="shuffle seed" value="42"/>"#))
    }

    // MARK: --shard

    /// Three shards partition the suite, and `merge-junit` of their reports holds the full run's testcases.
    @Test func threeShardsPartitionTheSuiteAndTheirReportsMergeIntoTheFullOne() async throws {
        let project = try Self.project()
        var union: [String] = []
        var shardFiles: [String] = []
        for index in 1...3 {
            let list = try await CLI.run(["--list", "--shard", "\(index)/3"], directory: project)
            #expect(list.status == 0, "\(list.stderr)")
            let names = Self.listed(list.stdout)
            #expect(list.stdout.hasPrefix("Shard \(index)/3: 5 of 15 scenarios\n"), "\(list.stdout)")
            #expect(names.count == 5)
            let path = project.appendingPathComponent("shard-\(index).xml").path
            let run = try await CLI.run(["--ci", "--shard", "\(index)/3", "--junit", path], directory: project)
            #expect(run.status == 0)
            #expect(Self.ran(run.stdout) == names, "a shard runs what it lists, in load order")
            union += names
            shardFiles.append(path)
        }
        #expect(union.sorted() == Self.allNames.sorted())
        #expect(Set(union).count == union.count, "no scenario in two shards")

        let full = project.appendingPathComponent("full.xml").path
        #expect(try await CLI.run(["--ci", "--junit", full], directory: project).status == 0)
        let merged = project.appendingPathComponent("merged.xml").path
        let merge = try await CLI.run(["merge-junit", merged] + shardFiles, directory: project)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.isEmpty && merge.stderr.isEmpty)
        let mergedXML = try String(contentsOfFile: merged, encoding: .utf8)
        let fullXML = try String(contentsOfFile: full, encoding: .utf8)
        #expect(Self.testcases(mergedXML).sorted() == Self.testcases(fullXML).sorted())
        #expect(Self.testcases(mergedXML).count == 15)
        #expect(mergedXML.contains(#"<testsuites name="scenario-run" tests="15" failures="0" skipped="0" time=""#))
        // One testsuite per feature, whichever shards ran its scenarios.
        #expect(mergedXML.components(separatedBy: "<testsuite name=").count - 1 == 3)
        for index in 1...3 { #expect(mergedXML.contains(#"<property name="shard" value="\#(index)/3"/>"#)) }
    }

    @Test func theShardIsCutBeforeFilteringAndShuffledWithin() async throws {
        let project = try Self.project()
        let whole = Self.listed(try await CLI.run(["--list", "--shard", "2/3"], directory: project).stdout)
        let smoke = try await CLI.run(["--list", "--shard", "2/3", "--tag", "smoke"], directory: project)
        let smokeNames = Self.listed(smoke.stdout)
        #expect(smokeNames == whole.filter { $0.hasSuffix(" 1") || $0.hasSuffix(" 2") })
        #expect(smoke.stdout.hasPrefix("Shard 2/3: \(smokeNames.count) of 6 scenarios\n"), "\(smoke.stdout)")
        let shuffled = try await CLI.run(["--list", "--shard", "2/3", "--shuffle", "42"], directory: project)
        #expect(
            shuffled.stdout.hasPrefix("Shuffled with seed 42\nShard 2/3: 5 of 15 scenarios\n"),
            "\(shuffled.stdout)"
        )
        #expect(Self.listed(shuffled.stdout).sorted() == whole.sorted())
    }

    /// `--shard-timings`: the parts are balanced by an earlier report's times, longest first.
    @Test func shardTimingsBalanceThePartsByTime() async throws {
        let project = try Self.project()
        var xml = #"<testsuites name="scenario-run">"# + "\n"
        for feature in ["Alpha", "Beta", "Gamma"] {
            xml += #"<testsuite name="\#(feature)" file="Scenarios/\#(feature.lowercased()).yml">"# + "\n"
            // Alpha 1 takes 60 s; every other scenario 1 s (Gamma 5 is not in the report: the median, 1 s).
            for number in 1...5 where !(feature == "Gamma" && number == 5) {
                let time = feature == "Alpha" && number == 1 ? "60.000" : "1.000"
                xml += #"<testcase classname="\#(feature)" name="\#(feature) \#(number)" time="\#(time)"/>"# + "\n"
            }
            xml += "</testsuite>\n"
        }
        xml += "</testsuites>\n"
        try xml.write(to: project.appendingPathComponent("previous.xml"), atomically: true, encoding: .utf8)
        var union: [String] = []
        for index in 1...3 {
            let list = try await CLI.run(
                ["--list", "--shard", "\(index)/3", "--shard-timings", "previous.xml"],
                directory: project
            )
            #expect(list.status == 0, "\(list.stderr)")
            let names = Self.listed(list.stdout)
            if names.contains("Alpha 1") {
                #expect(names == ["Alpha 1"], "the 60 s scenario has a part of its own")
            } else {
                #expect(names.count == 7)
            }
            union += names
        }
        #expect(union.sorted() == Self.allNames.sorted())
        let missing = try await CLI.run(
            ["--list", "--shard", "1/3", "--shard-timings", "nowhere.xml"],
            directory: project
        )
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: Cannot read 'nowhere.xml': there is no such file.\n")
    }

    @Test func ciVariablesSelectThePart() async throws {
        let project = try Self.project()
        let expected = Self.listed(try await CLI.run(["--list", "--shard", "2/3"], directory: project).stdout)
        for environment in [
            ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"],
            ["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"],
            ["BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "3"],
        ] {
            let list = try await CLI.run(["--list"], directory: project, environment: environment)
            #expect(list.stdout.hasPrefix("Shard 2/3: 5 of 15 scenarios\n"), "\(environment): \(list.stdout)")
            #expect(Self.listed(list.stdout) == expected)
        }
        // --shard wins over the variables; GitLab's CI_NODE_TOTAL=1 of an unsharded job shards nothing.
        let flag = try await CLI.run(
            ["--list", "--shard", "1/1"],
            directory: project,
            environment: ["CI_NODE_INDEX": "9", "CI_NODE_TOTAL": "3"]
        )
        #expect(flag.stdout.hasPrefix("Shard 1/1: 15 of 15 scenarios\n"))
        let unsharded = try await CLI.run(["--list"], directory: project, environment: ["CI_NODE_TOTAL": "1"])
        #expect(unsharded.stdout.hasPrefix("Alpha (Scenarios/alpha.yml)\n"), "\(unsharded.stdout)")
    }

    @Test func invalidShardsAreUsageErrors() async throws {
        let project = try Self.project()
        let variable = try await CLI.run(
            ["--ci"],
            directory: project,
            environment: ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"]
        )
        #expect(variable.status == 2)
        #expect(
            variable.stderr
                == "error: Invalid CI_NODE_INDEX '0': expected 1 to 3 (CI_NODE_INDEX counts from 1; CI_NODE_TOTAL is 3).\n"
        )
        #expect(variable.stdout.isEmpty)
        let flag = try await CLI.run(["--ci", "--shard", "4/3"], directory: project)
        #expect(flag.status == 2)
        #expect(flag.stderr.hasPrefix("Error: Invalid shard '4/3': K must be from 1 to 3.\n"), "\(flag.stderr)")
    }

    // MARK: merge-junit

    @Test func malformedOrMissingMergeInputIsAnErrorNamingTheFile() async throws {
        let project = try Self.project()
        try "<testsuites>\n  <testsuite name=\"A\">\n".write(
            to: project.appendingPathComponent("cut.xml"),
            atomically: true,
            encoding: .utf8
        )
        let malformed = try await CLI.run(["merge-junit", "merged.xml", "cut.xml"], directory: project)
        #expect(malformed.status == 2)
        #expect(
            malformed.stderr == """
                cut.xml:2:23: error: Malformed JUnit XML: the document does not end with its root element's end tag.
                  <testsuite name="A">
                                      ^

                """
        )
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("merged.xml").path))

        let missing = try await CLI.run(["merge-junit", "merged.xml", "nowhere.xml"], directory: project)
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: Cannot read 'nowhere.xml': there is no such file.\n")
        let nothing = try await CLI.run(["merge-junit", "merged.xml"], directory: project)
        #expect(nothing.status == 2)
        #expect(
            nothing.stderr.hasPrefix(
                "Error: merge-junit takes the merged report's path, then the JUnit files to merge.\n"
            )
        )
    }
}
