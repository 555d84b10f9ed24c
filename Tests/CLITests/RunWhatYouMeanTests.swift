import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Issue 23 on the built binary: outlines, tag expressions, the empty selection, `PATH:LINE`,
/// `--project`, `tear down` / `skip:` / a step's `timeout:`, and `--ci --watch`.
@Suite(.serialized)
struct RunWhatYouMeanTests {
    static let outline = """
        feature: Outline
        tags: [outline]
        scenarios:
          - scenario: Waits ${time}
            tags: [smoke]
            examples:
              - { time: 0.01 }
              - { time: 0.02 }
              - { time: 0.03 }
              - { time: 0.04 }
            steps:
              - wait: "${time}"
          - scenario: Fails
            tags: [slow]
            steps: [{ fail: on purpose }]
        """

    @Test func theDemosFourOutcomesAreOneOutlineOfFourRowsInListAndJUnit() async throws {
        let list = try await CLI.run(["--list", "Scenarios/reviews.yml"])
        let rows = list.stdout.split(separator: "\n").filter {
            $0.hasPrefix("  Posting a review the server answers with")
        }
        #expect(
            rows == [
                "  Posting a review the server answers with 201  @outcomes @reviews",
                "  Posting a review the server answers with 422  @outcomes @reviews",
                "  Posting a review the server answers with 500  @outcomes @reviews",
                "  Posting a review the server answers with 503  @outcomes @reviews",
            ]
        )
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("rwym-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try await CLI.run(["--ci", "--junit", report.path, "Scenarios/reviews.yml"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let xml = try String(contentsOf: report, encoding: .utf8)
        for status in [201, 422, 500, 503] {
            #expect(
                xml.contains(
                    #"<testcase classname="Reviews" name="Posting a review the server answers with \#(status)""#
                )
            )
        }
    }

    @Test func tagExpressionsSelectAndMistakesAreUsageErrorsWithSuggestions() async throws {
        let project = try CLI.project(["Scenarios/outline.yml": Self.outline])
        let expression = try await CLI.run(["--ci", "--tag", "@outline and not (@slwo or @smoke)"], directory: project)
        #expect(expression.status == 2, "@slwo is no scenario's tag: \(expression.stderr)")
        #expect(
            expression.stderr.contains(
                "error: No scenario matches --tag '@outline and not (@slwo or @smoke)' (5 loaded): no scenario has the tag @slwo. Did you mean @slow?"
            ),
            "\(expression.stderr)"
        )
        let smoke = try await CLI.run(["--ci", "--tag", "outline and not slow"], directory: project)
        #expect(smoke.status == 0)
        #expect(smoke.stdout.hasSuffix("4 passed, 0 failed\n"), "\(smoke.stdout)")
        // Repeated --tag: any of them.
        let either = try await CLI.run(["--ci", "--tag", "smoke", "--tag", "@slow"], directory: project)
        #expect(either.stdout.hasSuffix("4 passed, 1 failed\n"), "\(either.stdout)")

        let typo = try await CLI.run(["--ci", "--tag", "@smokey"], directory: project)
        #expect(typo.status == 2)
        #expect(typo.stderr == "error: No scenario matches --tag @smokey (5 loaded). Did you mean @smoke?\n")
        #expect(typo.stdout.isEmpty)

        let malformed = try await CLI.run(["--ci", "--tag", "smoke && slow"], directory: project)
        #expect(malformed.status == 2)
        #expect(
            malformed.stderr.contains("Malformed --tag 'smoke && slow': '&&' is not an operator. Did you mean 'and'?"),
            "\(malformed.stderr)"
        )
        let unclosed = try await CLI.run(["--ci", "--tag", "(smoke or slow"], directory: project)
        #expect(
            unclosed.stderr.contains("Malformed --tag '(smoke or slow': '(' is never closed."),
            "\(unclosed.stderr)"
        )
    }

    @Test func anEmptySelectionExitsFourUnlessAllowedAndAnEmptyShardExitsZero() async throws {
        let project = try CLI.project(["Scenarios/outline.yml": Self.outline])
        let empty = try await CLI.run(["--ci", "--tag", "smoke and slow"], directory: project)
        #expect(empty.status == 4)
        #expect(empty.stderr == "error: No scenario matches --tag '@smoke and @slow' (5 loaded).\n", "\(empty.stderr)")
        let filter = try await CLI.run(["--ci", "--filter", "^Fails!"], directory: project)
        #expect(filter.status == 4)
        #expect(
            filter.stderr == "error: No scenario matches --filter '^Fails!' (5 loaded). Did you mean 'Fails'?\n",
            "\(filter.stderr)"
        )
        let allowed = try await CLI.run(["--ci", "--allow-empty", "--tag", "smoke and slow"], directory: project)
        #expect(allowed.status == 0)
        #expect(allowed.stdout.hasSuffix("0 passed, 0 failed\n"))
        let noFailures = try await CLI.run(["--ci", "--rerun-failed"], directory: project)
        #expect(noFailures.status == 4)
        #expect(noFailures.stderr.contains("The last run recorded no failures."), "\(noFailures.stderr)")

        // Seven shards of five scenarios: two are empty, and say so.
        var statuses: [Int32] = []
        var names: [String] = []
        var emptyShards = 0
        for index in 1...7 {
            let part = try await CLI.run(["--ci", "--shard", "\(index)/7"], directory: project)
            statuses.append(part.status)
            names += part.stdout.split(separator: "\n").filter { $0.hasPrefix("✓ ") || $0.hasPrefix("✗ ") }.map {
                String($0.dropFirst(2).prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
            }
            if part.stdout.hasSuffix("0 passed, 0 failed\n") {
                emptyShards += 1
                #expect(part.status == 0)
                #expect(part.stderr.contains("Shard \(index)/7 has none of the 5 selected scenarios"), "\(part.stderr)")
            }
        }
        #expect(names.sorted() == ["Fails", "Waits 0.01", "Waits 0.02", "Waits 0.03", "Waits 0.04"])
        #expect(emptyShards >= 2, "seven shards of five scenarios leave at least two empty")
        #expect(statuses.filter { $0 == 1 }.count == 1, "only the shard with 'Fails' fails")
    }

    @Test func pathLineRunsTheScenarioOrRowAndFailuresPasteBack() async throws {
        let project = try CLI.project(["Scenarios/outline.yml": Self.outline])
        let row = try await CLI.run(["--ci", "Scenarios/outline.yml:9"], directory: project)
        #expect(row.stdout.contains("✓ Waits 0.03 ("))
        #expect(row.stdout.hasSuffix("1 passed, 0 failed\n"), "\(row.stdout)")
        let outline = try await CLI.run(["--ci", "Scenarios/outline.yml:12"], directory: project)
        #expect(outline.stdout.hasSuffix("4 passed, 0 failed\n"), "a step line of an outline runs its rows")
        let several = try await CLI.run(
            ["--ci", "Scenarios/outline.yml:7:9", "Scenarios/outline.yml:15"],
            directory: project
        )
        #expect(several.stdout.hasSuffix("2 passed, 1 failed\n"), "\(several.stdout)")

        let failing = try await CLI.run(["--ci"], directory: project)
        let at = try #require(failing.stdout.split(separator: "\n").first { $0.contains("at Scenarios/outline.yml:") })
        let location = String(at.trimmingCharacters(in: .whitespaces).dropFirst(3))
        #expect(location == "Scenarios/outline.yml:15")
        let again = try await CLI.run(["--ci", location], directory: project)
        #expect(
            again.stdout.hasSuffix("0 passed, 1 failed\n"),
            "the printed location runs that scenario: \(again.stdout)"
        )

        let listed = try await CLI.run(["--list", "Scenarios/outline.yml:8"], directory: project)
        #expect(listed.stdout.contains("  Waits 0.02  @outline @smoke") && listed.stdout.hasSuffix("1 scenario\n"))
        let before = try await CLI.run(["--ci", "Scenarios/outline.yml:2"], directory: project)
        #expect(before.status == 2)
        #expect(before.stderr == "error: No scenario at Scenarios/outline.yml:2; its scenarios start at lines 4, 13.\n")
        let missing = try await CLI.run(["--ci", "Scenarios/nothing.yml:3"], directory: project)
        #expect(missing.status == 2)
        #expect(
            missing.stderr.hasPrefix(
                "Scenarios/nothing.yml:1:1: error: No such file or folder (looked in \(project.standardizedFileURL.path)/Scenarios)."
            ),
            "\(missing.stderr)"
        )
    }

    /// Issue 27: a line past the file's last scenario, or in a `tear down:` written after it, ran that last
    /// scenario (exit 0); a file named through a link and directly is one file.
    @Test func pathLineOutsideEveryScenarioIsAUsageError() async throws {
        let file = """
            scenarios:
              - scenario: First
                steps: [succeed]
              - scenario: Last
                steps:
                  - fail: on purpose
            tear down:
              - succeed
            """
        let project = try CLI.project(["Scenarios/file.yml": file])
        let message = "error: No scenario at Scenarios/file.yml:%d; its scenarios start at lines 2, 4.\n"
        for line in [8, 999] {
            let past = try await CLI.run(["--ci", "Scenarios/file.yml:\(line)"], directory: project)
            #expect(past.status == 2, "line \(line): \(past.stdout)")
            #expect(past.stderr == String(format: message, line))
        }
        let last = try await CLI.run(["--ci", "Scenarios/file.yml:6"], directory: project)
        #expect(last.stdout.hasSuffix("0 passed, 1 failed\n"), "a step line of the last scenario runs it")

        try FileManager.default.createSymbolicLink(
            atPath: project.appendingPathComponent("Scenarios/link.yml").path,
            withDestinationPath: "file.yml"
        )
        let both = try await CLI.run(["--ci", "Scenarios/link.yml:2", "Scenarios/file.yml:5"], directory: project)
        #expect(both.status == 1, "\(both.stderr)")
        #expect(both.stdout.hasSuffix("1 passed, 1 failed\n"), "\(both.stdout)")
    }

    /// Issue 27: `--list` did not mark skipped scenarios.
    @Test func listMarksSkippedScenarios() async throws {
        let project = try CLI.project([
            "Scenarios/s.yml": """
            scenarios:
              - scenario: Later
                skip: the API is not there yet
                steps: [succeed]
              - scenario: Now
                steps: [succeed]
            """
        ])
        let listed = try await CLI.run(["--list"], directory: project)
        #expect(listed.stdout.contains("  Later  (skipped: the API is not there yet)\n"), "\(listed.stdout)")
        #expect(listed.stdout.contains("  Now\n"))
    }

    @Test func rerunFailedRunsTheFailedRowOnly() async throws {
        let project = try CLI.project([
            "Scenarios/rows.yml": """
            scenarios:
              - scenario: Row ${outcome}
                examples: [{ outcome: succeed }, { outcome: fail }]
                steps:
                  - ${outcome}: on purpose
            """
        ])
        let first = try await CLI.run(["--ci"], directory: project)
        #expect(first.stdout.hasSuffix("1 passed, 1 failed\n"), "\(first.stdout)\(first.stderr)")
        let rerun = try await CLI.run(["--ci", "--rerun-failed"], directory: project)
        #expect(rerun.stdout.contains("✗ Row fail ("))
        #expect(rerun.stdout.hasSuffix("0 passed, 1 failed\n"), "\(rerun.stdout)")
    }

    @Test func projectOptionReadsEveryRelativePathFromTheFolder() async throws {
        let project = try CLI.project(["Scenarios/outline.yml": Self.outline])
        let parent = project.deletingLastPathComponent()
        let name = project.lastPathComponent
        let report = "report-\(UUID().uuidString).xml"
        let run = try await CLI.run(["--ci", "-C", name, "--junit", report, "--tag", "smoke"], directory: parent)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("4 passed, 0 failed\n"))
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(report).path))
        #expect(
            FileManager.default.fileExists(
                atPath: project.appendingPathComponent(".scenario-run/last-failed.json").path
            )
        )
        let long = try await CLI.run(["--ci", "--project", name, "Scenarios/outline.yml:7"], directory: parent)
        #expect(long.stdout.hasSuffix("1 passed, 0 failed\n"), "\(long.stderr)")

        let missing = try await CLI.run(["--ci", "-C", "no-such-folder"], directory: parent)
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains(
                "--project: there is no folder 'no-such-folder' (looked in \(parent.path))."
            ),
            "\(missing.stderr)"
        )
        // Without the option, the folder looked in is named.
        let elsewhere = try await CLI.run(["--ci"], directory: parent)
        #expect(elsewhere.status == 2)
        #expect(
            elsewhere.stderr.hasPrefix(
                "Scenarios:1:1: error: No such file or folder (looked in \(parent.standardizedFileURL.path))."
            )
        )
    }

    @Test func fileTearDownRunsAfterAFailureAndSkipIsReportedWithItsReason() async throws {
        let project = try CLI.project([
            "Scenarios/shape.yml": """
            tear down:
              - stub reachability: reachable via wifi
            scenarios:
              - scenario: Fails then tears down
                steps:
                  - wait: 0.01
                    timeout: 5
                  - fail: on purpose
              - scenario: Not yet
                skip: waiting for the new API
                steps: [succeed]
            """
        ])
        let report = project.appendingPathComponent("report.xml")
        let run = try await CLI.run(["--ci", "--verbose", "--junit", report.path], directory: project)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!lines.contains { $0.hasPrefix("- stub reachability") }, "the file's tear-down is not skipped")
        let failed = try #require(lines.firstIndex { $0.hasPrefix("✗ fail") })
        let fileTearDown = try #require(lines.firstIndex { $0.hasPrefix("✓ stub reachability") })
        let defaultTearDown = try #require(lines.firstIndex { $0.hasPrefix("✓ tear down the test environment") })
        #expect(failed < fileTearDown && fileTearDown < defaultTearDown, "\(run.stdout)")
        #expect(run.stdout.contains("- Not yet (skipped: waiting for the new API)"))
        #expect(run.stdout.hasSuffix("0 passed, 1 failed, 1 skipped\n"))
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(xml.contains(#"<skipped message="waiting for the new API"/>"#), "\(xml)")
    }

    /// Issue 27: `skip: false` was taken as the reason "false" and skipped the scenario; it runs it, and
    /// `skip: no` (a YAML 1.1 boolean word, neither a reason nor `false`) is a located error.
    @Test func skipFalseRunsTheScenarioAndSkipNoIsALocatedError() async throws {
        let scenario = "scenarios:\n  - scenario: Runs\n    skip: VALUE\n    steps: [succeed]\n"
        let project = try CLI.project(["Scenarios/skip.yml": scenario.replacingOccurrences(of: "VALUE", with: "false")])
        let runs = try await CLI.run(["--ci"], directory: project)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stdout.hasSuffix("1 passed, 0 failed\n"), "\(runs.stdout)")

        try scenario.replacingOccurrences(of: "VALUE", with: "no").write(
            to: project.appendingPathComponent("Scenarios/skip.yml"),
            atomically: true,
            encoding: .utf8
        )
        let refused = try await CLI.run(["--ci"], directory: project)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.hasPrefix(
                "Scenarios/skip.yml:3:11: error: 'skip: no' is not a reason; write 'skip: false' to run the scenario, or a reason to skip it, like 'skip: waiting for the new reviews API'.\n"
            ),
            "\(refused.stderr)"
        )
        #expect(refused.stdout.isEmpty, "nothing ran")
    }

    /// Issue 27: `--tag` with ~2,600 nested parentheses overflowed the stack; 3,000 are a usage error (too
    /// many words, before any nesting is parsed).
    @Test func aTagExpressionNestedThreeThousandDeepIsAUsageError() async throws {
        let project = try CLI.project(["Scenarios/outline.yml": Self.outline])
        let deep = String(repeating: "(", count: 3_000) + "@smoke" + String(repeating: ")", count: 3_000)
        let result = try await CLI.run(["--ci", "--tag", deep], directory: project)
        #expect(result.status == 2, "\(result.stderr.suffix(300))")
        #expect(
            result.stderr.hasPrefix("Error: Malformed --tag '((((")
                && result.stderr.contains("': it has more than 1,000 words; select fewer tags."),
            "\(result.stderr.suffix(300))"
        )
        #expect(result.stdout.isEmpty)
    }

    @Test func ciWatchRerunsAChangedFileShowsALoadErrorAndClearsIt() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
            "Scenarios/b.yml": "scenarios:\n  - scenario: B\n    steps: [succeed]\n",
        ])
        for polling in [false, true] {
            let running = try CLI.Running(
                ["--ci", "--watch"],
                directory: project,
                environment: polling ? ["SCENARIO_RUN_WATCH_POLL": "1"] : [:]
            )
            #expect(await eventually(timeout: .seconds(60)) { running.stdout.contains("Ctrl-C to stop.") })
            #expect(running.stdout.hasPrefix("✓ A ("))
            let b = project.appendingPathComponent("Scenarios/b.yml")
            try "scenarios:\n  - scenario: B saved\n    steps: [succeed]\n".write(
                to: b,
                atomically: true,
                encoding: .utf8
            )
            #expect(
                await eventually(timeout: .seconds(30)) {
                    running.stdout.contains("Changed Scenarios/b.yml: running 1 scenario.\n✓ B saved (")
                },
                "\(running.stdout)"
            )
            try "scenarios:\n  - scenario: B\n    steps: [suceed]\n".write(to: b, atomically: true, encoding: .utf8)
            #expect(
                await eventually(timeout: .seconds(30)) {
                    running.stderr.contains(
                        "Scenarios/b.yml:3:13: error: Unknown step 'suceed'. Did you mean 'succeed'?"
                    )
                },
                "\(running.stderr)"
            )
            try "scenarios:\n  - scenario: B fixed\n    steps: [succeed]\n".write(
                to: b,
                atomically: true,
                encoding: .utf8
            )
            #expect(
                await eventually(timeout: .seconds(30)) {
                    running.stdout.contains("✓ B fixed (") && running.stdout.hasSuffix("1 passed, 0 failed\n")
                },
                "\(running.stdout)"
            )
            #expect(running.stdout.components(separatedBy: "✓ A (").count == 2, "only the changed file re-ran")
            kill(running.process.processIdentifier, SIGINT)
            let result = await running.wait()
            #expect(result.status == 0, "the last run passed: \(result.stderr)")
        }
    }
}
