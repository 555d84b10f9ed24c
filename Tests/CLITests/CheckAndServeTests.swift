import Foundation
import ObjectManager
import TestSupport
import Testing

struct CheckAndServeTests {
    @Test func checkValidatesEverythingAndRunsNothing() async throws {
        let result = try await CLI.run(["check"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("OK: "))
        #expect(result.stdout.contains("scenarios in 6 files"))
    }

    @Test func checkReportsABadServerFileAndBadScenarioFilesTogether() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml":
                "scenarios:\n  - scenario: A\n    steps:\n      - cache response: { path: /x, fixture: missing.json }\n"
        ])
        let server = project.appendingPathComponent("Fixtures/server.yml")
        try "routes:\n  - { path: /x, stauts: 200 }\n".write(to: server, atomically: true, encoding: .utf8)
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "Fixtures/server.yml:2:17: error: Unknown route key 'stauts'. Did you mean 'state' or 'status'?"
            ),
            "\(result.stderr)"
        )
        #expect(
            result.stderr.contains("Scenarios/a.yml:4:46: error: Fixture 'missing.json' not found in 'Fixtures'."),
            "\(result.stderr)"
        )
        #expect(result.stderr.hasSuffix("2 errors; nothing was run.\n"))
    }

    @Test func anUnknownDefaultStepInTheSettingsIsALocatedErrorForCheckAndRun() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
            "scenario-run.yml": "default set up: [set up the test enviroment]\n",
        ])
        for arguments in [["check"], ["--ci"]] {
            let result = try await CLI.run(arguments, directory: project)
            #expect(result.status == 2, "\(arguments)")
            #expect(
                result.stderr.hasPrefix(
                    """
                    scenario-run.yml:1:18: error: Unknown step 'set up the test enviroment' in 'default set up'. \
                    Did you mean 'set up the test environment'
                    """
                ),
                "\(result.stderr)"
            )
            #expect(result.stderr.contains("default set up: [set up the test enviroment]\n                 ^"))
            #expect(result.stdout.isEmpty, "nothing ran")
        }
    }

    /// Every error of `scenario-run.yml` in one round: an unknown default step with the file's other errors,
    /// not only once they are fixed; each at its line and column, with the line and a caret.
    @Test func settingsErrorsComeInOneRound() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
            "scenario-run.yml": "step timeout: -1\ndefault set up: [set up the test enviroment]\nleaks: loud\n",
        ])
        for arguments in [["check"], ["--ci"]] {
            let result = try await CLI.run(arguments, directory: project)
            #expect(result.status == 2, "\(arguments)")
            #expect(
                result.stderr == """
                    scenario-run.yml:1:15: error: 'step timeout' must be a positive number of seconds, at most 86400 (a day).
                    step timeout: -1
                                  ^
                    scenario-run.yml:2:18: error: Unknown step 'set up the test enviroment' in 'default set up'. \
                    Did you mean 'set up the test environment' or 'tear down the test environment'?
                    default set up: [set up the test enviroment]
                                     ^
                    scenario-run.yml:3:8: error: 'leaks' must be fail, warn or off, not 'loud'.
                    leaks: loud
                           ^
                    3 errors; nothing was run.

                    """,
                "\(arguments): \(result.stderr)"
            )
        }
    }

    @Test func attributeNamesAndBoundNamesAreCheckedAtLoad() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": """
            scenarios:
              - scenario: A
                steps:
                  - insert entity: { entity: Review, attributes: { titel: Nice } }
                  - create from factory: { factory: restaurant, properties: { nmae: Bistro } }
                  - post object: { class: Review, attributes: { ratng: 5 } }
                  - expect entities: { entity: Review, where: { restaurantId: 1 } }
                  - get objects: { relationship: reviews, of: place }
                  - delete object: { object: "${review}" }

            """
        ])
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            errors == [
                "Scenarios/a.yml:4:56: error: Entity 'Review' has no attribute 'titel'. Did you mean 'title'?",
                "Scenarios/a.yml:5:67: error: Entity 'Restaurant' has no attribute 'nmae'. Did you mean 'name'?",
                "Scenarios/a.yml:6:53: error: Entity 'Review' has no attribute 'ratng'. Did you mean 'rating'?",
                "Scenarios/a.yml:7:53: error: Entity 'Review' has no attribute 'restaurantId'. Did you mean 'restaurantID'?",
                "Scenarios/a.yml:8:51: error: Unbound name 'place' in 'of'; bind it with 'as: place' on an earlier step.",
                "Scenarios/a.yml:9:34: error: Unbound name 'review' in '${review}'; bind it with 'as: review' on an earlier step.",
            ],
            "\(result.stderr)"
        )
    }

    /// Durations a 64-bit count of milliseconds cannot hold trapped at load; now they are located errors.
    @Test func hugeAndInfiniteDurationsAreLocatedErrorsNotCrashes() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps:\n      - wait: 1e17\n      - wait: .inf\n",
            "scenario-run.yml": "step timeout: .inf\n",
        ])
        try "routes:\n  - { path: /slow, delay: 1e17 }\n".write(
            to: project.appendingPathComponent("Fixtures/server.yml"),
            atomically: true,
            encoding: .utf8
        )
        for arguments in [["check"], ["--ci"]] {
            let result = try await CLI.run(arguments, directory: project)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "scenario-run.yml:1:15: error: 'step timeout' must be a positive number of seconds, at most 86400 (a day)."
                )
            )
        }
        try "".write(to: project.appendingPathComponent("scenario-run.yml"), atomically: true, encoding: .utf8)
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            errors == [
                "Fixtures/server.yml:2:27: error: Expected a delay in seconds from 0 to 86400 (a day), found '1e17'.",
                "Scenarios/a.yml:4:15: error: Step 'wait' takes a number of seconds from 0 to 86400 (a day), not '1e17'.",
                "Scenarios/a.yml:5:15: error: Step 'wait' takes a number of seconds from 0 to 86400 (a day), not '.inf'.",
            ],
            "\(result.stderr)"
        )
        let timeout = try await CLI.run(["--ci", "--timeout", "1e17"], directory: project)
        #expect(timeout.status == 2)
        #expect(
            timeout.stderr.contains("--timeout takes a number of seconds greater than 0 and at most 86400 (a day).")
        )
    }

    @Test func negativeCountsStatusesOutOfRangeAndAnEmptyToAreLoadErrors() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": """
            scenarios:
              - scenario: A
                steps:
                  - expect entities: { entity: Review, count: -1 }
                  - expect pending requests: -1
                  - expect response: { status: 1000 }
                  - expect request: { count: 99999999999 }
                  - stub route: { class: Review, method: POST, to: "" }

            """
        ])
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            errors == [
                "Scenarios/a.yml:4:51: error: 'count' of step 'expect entities' takes an integer from 0 to 1000000, not '-1'.",
                "Scenarios/a.yml:5:34: error: Step 'expect pending requests' takes an integer from 0 to 1000000, not '-1'.",
                "Scenarios/a.yml:6:36: error: 'status' of step 'expect response' takes an integer from 100 to 599, not '1000'.",
                "Scenarios/a.yml:7:34: error: 'count' of step 'expect request' takes an integer from 0 to 1000000, not "
                    + "'99999999999'.",
                "Scenarios/a.yml:8:56: error: 'to' takes a path pattern that starts with '/', like '/422', not ''.",
            ],
            "\(result.stderr)"
        )
    }

    @Test func optionsOutOfRangeOrPointingNowhereAreUsageErrors() async throws {
        for subcommand in [["check"], ["--ci"], ["serve"]] {
            let result = try await CLI.run(subcommand + ["--fixtures", "NoSuchFolder"])
            #expect(result.status == 2, "\(subcommand)")
            #expect(
                result.stderr.contains(
                    "--fixtures: there is no folder 'NoSuchFolder' (looked in \(CLI.repositoryRoot.standardizedFileURL.path))."
                ),
                "\(subcommand): \(result.stderr)"
            )
        }
        let file = try await CLI.run(["check", "--fixtures", "Package.swift"])
        #expect(file.status == 2, "a file is not a fixture folder")
        for port in ["-1", "65536", "99999999999999999999"] {
            #expect(try await CLI.run(["serve", "--port", port]).status == 2, "port \(port)")
        }
        for seconds in ["0", "-3", "1e17", "inf", "nan"] {
            let result = try await CLI.run(["--ci", "--scenario-timeout=\(seconds)"])
            #expect(result.status == 2, "--scenario-timeout \(seconds)")
            #expect(
                result.stderr.contains("--scenario-timeout takes a number of seconds greater than 0 and at most 86400")
            )
        }
    }

    @Test func serveAnswersOnThePrintedURLUntilInterrupted() async throws {
        let running = try CLI.Running(["serve"], directory: CLI.repositoryRoot, environment: [:])
        #expect(await eventually { running.stdout.contains("http://127.0.0.1:") })
        let line = try #require(running.stdout.split(separator: "\n").first { $0.contains("http://127.0.0.1:") })
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
        let url = try #require(URL(string: String(address) + "/restaurants"))
        let transport = AsyncHTTPTransport()
        let response = try await transport.send(HTTPRequest(method: .get, url: url))
        await transport.shutdown()
        #expect(response.status == 200)
        #expect(response.bodyText.contains("Chez Swift"))
        running.process.interrupt()
        let result = await running.wait()
        #expect(result.status == 0)
        #expect(result.stdout.contains("Stopped; 1 requests served."))
    }
}
