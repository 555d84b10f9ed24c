import Foundation
import Testing

/// `check for leaks` through the built binary: a tear-down that forgets the environment's tear-down,
/// `leaks: warn`, `leaks: off`, `KIF_SKIP_TEAR_DOWN`, the JUnit report, `--list` and the demo suite.
struct LeakCheckTests {
    /// Every scenario's file set-up saves a row; the project's tear-down only waits for requests.
    static func forgetfulProject(leaks: String? = nil) throws -> URL {
        try CLI.project([
            "scenario-run.yml": "default tear down: [wait for requests]\n" + (leaks.map { "leaks: \($0)\n" } ?? ""),
            "Scenarios/users.yml": """
            feature: Users
            set up:
              - insert entity: { entity: User, attributes: { userID: 1, name: Ada } }
            scenarios:
              - scenario: Reading a user
                steps:
                  - expect entities: { entity: User, count: 1 }
              - scenario: Stubbing a route
                steps:
                  - stub route: { class: Review, method: POST, to: /422 }
            """,
        ])
    }

    @Test func aTearDownThatForgetsTheEnvironmentFailsEveryScenarioWithItsLeaks() async throws {
        let project = try Self.forgetfulProject()
        let result = try await CLI.run(["--ci"], directory: project)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let scenarios = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("✗") || $0.hasPrefix("✓") }
        #expect(scenarios.count == 2 && scenarios.allSatisfy { $0.hasPrefix("✗") }, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                """
                    ✓ expect entities User count 1
                    ✓ wait for requests
                    ✗ check for leaks
                      1 User row

                """
            ),
            "\(result.stdout)"
        )
        #expect(
            result.stdout.contains(
                """
                    ✗ check for leaks
                      1 User row; route Review POST still points to /422

                """
            ),
            "\(result.stdout)"
        )
        #expect(result.stdout.hasSuffix("0 passed, 2 failed\n"))
    }

    @Test func theJUnitReportCarriesTheLeaksAsTheFailure() async throws {
        let project = try Self.forgetfulProject()
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(["--ci", "--junit", report.path, "--filter", "Stubbing"], directory: project)
        #expect(result.status == 1)
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(
            xml.contains(
                #"<failure message="1 User row; route Review POST still points to /422">check for leaks</failure>"#
            ),
            "\(xml)"
        )
        #expect(xml.contains("✗ check for leaks: 1 User row; route Review POST still points to /422"))
    }

    @Test func warnReportsTheLeaksAndPasses() async throws {
        let project = try Self.forgetfulProject(leaks: "warn")
        let report = project.appendingPathComponent("report.xml")
        let result = try await CLI.run(["--ci", "--junit", report.path], directory: project)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                """
                ✓ Stubbing a route (
                """
            ),
            "\(result.stdout)"
        )
        #expect(
            result.stdout.contains(
                """
                 s)
                    ⚠ check for leaks
                      1 User row; route Review POST still points to /422

                """
            ),
            "\(result.stdout)"
        )
        #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"))
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(!xml.contains("<failure"))
        #expect(xml.contains("⚠ check for leaks: 1 User row; route Review POST still points to /422"), "\(xml)")
    }

    @Test func offChecksNothingAndListsNoStep() async throws {
        let project = try Self.forgetfulProject(leaks: "off")
        let result = try await CLI.run(["--ci", "--verbose"], directory: project)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("check for leaks"))
        #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"))
        let list = try await CLI.run(["--list"], directory: project)
        #expect(!list.stdout.contains("check for leaks"))
    }

    @Test func theStepIsListedAfterTearDown() async throws {
        let list = try await CLI.run(["--list", "Scenarios/store.yml"])
        #expect(
            list.stdout.contains("    tear down tear down the test environment\n    tear down check for leaks\n"),
            "\(list.stdout)"
        )
    }

    @Test func nothingIsCheckedWhileTearDownIsSkipped() async throws {
        let project = try Self.forgetfulProject()
        let result = try await CLI.run(
            ["--ci", "--verbose"],
            directory: project,
            environment: ["KIF_SKIP_TEAR_DOWN": "1"]
        )
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("    - check for leaks (skipped)"))
        #expect(result.stdout.contains("2 passed, 0 failed\n"))
    }

    @Test func aBadLeaksValueIsALocatedErrorAndNothingRuns() async throws {
        let project = try Self.forgetfulProject(leaks: "never")
        let result = try await CLI.run(["--ci"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                """
                scenario-run.yml:2:8: error: 'leaks' must be fail, warn or off, not 'never'.
                leaks: never
                       ^
                """
            ),
            "\(result.stderr)"
        )
    }

    @Test func theDemosLeakingExampleFailsWithTheAppsOwnCheck() async throws {
        let result = try await CLI.run(["--ci", "--jobs", "2", "Scenarios/examples-failing/leaking.yml"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                """
                ✗ Leaving a draft behind (
                """
            )
        )
        #expect(
            result.stdout.contains(
                """
                    ✓ tear down the test environment
                    ✗ check for leaks
                      1 review draft still saved

                """
            ),
            "\(result.stdout)"
        )
        #expect(result.stdout.hasSuffix("0 passed, 1 failed\n"))
    }
}
