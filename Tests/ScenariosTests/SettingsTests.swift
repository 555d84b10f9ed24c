import Diagnostics
import Scenarios
import Testing

struct SettingsTests {
    @Test func defaultsFollowTheSpec() {
        let settings = RunSettings()
        #expect(settings.stepTimeout == .seconds(10))
        #expect(settings.defaultSetUp == ["set up the test environment"])
        #expect(settings.defaultTearDown == ["tear down the test environment"])
        #expect(settings.fixtures == "Fixtures")
        #expect(settings.scenarios == "Scenarios")
        #expect(!settings.skipTearDown && !settings.failFast)
    }

    @Test func loadsEveryKey() throws {
        let settings = try RunSettings.load(
            yaml: """
                step timeout: 2.5
                retry interval: 0.1
                default set up: [reset world, seed data]
                default tear down: clean up
                fixtures: Tests/Fixtures
                scenarios: Tests/Scenarios
                fail fast: true
                """,
            file: "scenario-run.yml"
        )
        #expect(settings.stepTimeout == .milliseconds(2500))
        #expect(settings.retryInterval == .milliseconds(100))
        #expect(settings.defaultSetUp == ["reset world", "seed data"])
        #expect(settings.defaultTearDown == ["clean up"])
        #expect(settings.fixtures == "Tests/Fixtures")
        #expect(settings.scenarios == "Tests/Scenarios")
        #expect(settings.failFast)
    }

    @Test func reportsEveryProblemAsADiagnostic() {
        #expect {
            try RunSettings.load(
                yaml: "step timeout: soon\nfixture: F\ndefault set up: [{a: b}]\n",
                file: "scenario-run.yml"
            )
        } throws: { error in
            (error as? DiagnosticList)?.description == """
                scenario-run.yml:1:15: error: 'step timeout' must be a positive number of seconds, at most 86400 (a day).
                step timeout: soon
                              ^
                scenario-run.yml:2:1: error: Unknown setting 'fixture'. Did you mean 'fixtures'?
                fixture: F
                ^
                scenario-run.yml:3:17: error: 'default set up' must be a list of step names.
                default set up: [{a: b}]
                                ^
                """
        }
    }

    @Test func leaksIsFailWarnOrOffAndFailByDefault() throws {
        #expect(RunSettings().leaks == .fail)
        for (text, mode) in [("fail", RunSettings.LeakMode.fail), ("warn", .warn), ("off", .off), ("Warn", .warn)] {
            #expect(try RunSettings.load(yaml: "leaks: \(text)\n", file: "scenario-run.yml").leaks == mode)
        }
    }

    @Test func aBadLeaksValueIsALocatedErrorWithASuggestion() {
        #expect {
            try RunSettings.load(yaml: "leaks: warning\nleak: off\n", file: "scenario-run.yml")
        } throws: { error in
            (error as? DiagnosticList)?.description == """
                scenario-run.yml:1:8: error: 'leaks' must be fail, warn or off, not 'warning'. Did you mean 'warn'?
                leaks: warning
                       ^
                scenario-run.yml:2:1: error: Unknown setting 'leak'. Did you mean 'leaks'?
                leak: off
                ^
                """
        }
        #expect {
            try RunSettings.load(yaml: "leaks: [fail]\n", file: "scenario-run.yml")
        } throws: { error in
            (error as? DiagnosticList)?.description == """
                scenario-run.yml:1:8: error: 'leaks' must be fail, warn or off, not a list.
                leaks: [fail]
                       ^
                """
        }
    }

    @Test func emptyFileGivesDefaults() throws {
        #expect(try RunSettings.load(yaml: "", file: "scenario-run.yml") == RunSettings())
    }

    @Test func environmentSwitchesCountWhenNonBlank() {
        let on = RunSettings().applying(environment: [
            "KIF_SKIP_TEAR_DOWN": "yes", "KIF_EXIT_ON_FAILURE": "1", "KIF_SCENARIO_FILTER": "review",
        ])
        #expect(on.skipTearDown && on.failFast && on.filter == "review")
        let blank = RunSettings().applying(environment: ["KIF_SKIP_TEAR_DOWN": "  ", "KIF_EXIT_ON_FAILURE": ""])
        #expect(!blank.skipTearDown && !blank.failFast && blank.filter == nil)
    }
}
