import Diagnostics
import Foundation
import Scenarios
import Testing

struct LoaderTests {
    let sample = """
        feature: Reviews
        tags: [reviews]
        set up:
          - create from factory: { factory: restaurant, as: place, properties: { restaurantID: 12345 } }
        scenarios:
          - scenario: Posting a review that the server rejects
            tags: [errors]
            steps:
              - stub route: { class: Review, method: POST, to: /422 }
              - log: "restaurant ${place.restaurantID}"
              - Expect   Response: { status: 422 }
          - scenario: Waiting a moment
            steps:
              - wait: 0.5
              - succeed
        """

    @Test func loadsTheSpecExample() throws {
        let scenarios = try FakeSteps.loader.load(yaml: sample, file: "Scenarios/reviews.yml")
        #expect(scenarios.map(\.name) == ["Posting a review that the server rejects", "Waiting a moment"])
        let first = try #require(scenarios.first)
        #expect(first.feature == "Reviews")
        #expect(first.tags == ["reviews", "errors"])
        #expect(first.id == ScenarioID(file: "Scenarios/reviews.yml", name: "Posting a review that the server rejects"))
        #expect(first.location == SourceLocation(file: "Scenarios/reviews.yml", line: 6, column: 5))
        #expect(first.setUp.count == 1)
        #expect(
            first.steps.map(\.description) == [
                "stub route {class: Review, method: POST, to: /422}",
                "log restaurant ${place.restaurantID}",
                "expect response {status: 422}",
            ]
        )
        #expect(first.steps.map(\.location?.line) == [9, 10, 11])
        #expect(first.steps.first?.location?.column == 9)
        #expect(scenarios[1].tags == ["reviews"])
        #expect(scenarios[1].steps.map(\.description) == ["wait 0.5 s", "succeed"])
    }

    /// The parent of worker processes keeps steps as descriptions: everything a report shows is as
    /// loaded with actions, every argument is still checked, and a step run anyway fails saying why.
    @Test func stepsLoadedWithoutActionsKeepWhatReportsShowAndFailIfRun() async throws {
        var loader = FakeSteps.loader
        let full = try loader.load(yaml: sample, file: "Scenarios/reviews.yml")
        loader.keepsActions = false
        let described = try loader.load(yaml: sample, file: "Scenarios/reviews.yml")
        #expect(described.map(\.id) == full.map(\.id))
        for (with, without) in zip(full, described) {
            for (a, b) in zip(with.setUp + with.steps + with.tearDown, without.setUp + without.steps + without.tearDown)
            {
                #expect(a.description == b.description && a.location == b.location && a.timeout == b.timeout)
                #expect(a.settles == b.settles && a.call == b.call)
            }
            #expect(with.steps.count == without.steps.count && with.setUp.count == without.setUp.count)
        }
        let context = ScenarioContext(scenario: ScenarioID(file: "Scenarios/reviews.yml", name: "Waiting a moment"))
        let result = try await described[1].steps[1].action(context)
        #expect(
            result
                == .failure("This step was loaded without its action: this process only reports steps its workers run.")
        )
        #expect(try await full[1].steps[1].action(context) == .success)
        // An argument that does not check is still an error.
        #expect(throws: DiagnosticList.self) {
            try loader.load(yaml: "scenarios:\n  - scenario: A\n    steps: [{wait: lots}]\n", file: "x.yml")
        }
    }

    @Test func featureDefaultsToTheFileName() throws {
        let text = "scenarios:\n  - scenario: A\n    steps: [succeed]\n"
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "Scenarios/sub/reviews.yaml")
        #expect(scenarios.first?.feature == "reviews")
    }

    @Test func loadsFoldersRecursivelyInPathOrderSkippingSettingsAndHiddenFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("loader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "b.yml": "B", "a/z.yaml": "AZ", "a/c.yml": "AC", ".hidden.yml": "H", ".dir/x.yml": "X",
            "scenario-run.yml": "S", "server.yml": "V", "notes.txt": "N",
        ]
        for (path, name) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try "scenarios:\n  - scenario: \(name)\n    steps: [succeed]\n".write(
                to: url,
                atomically: true,
                encoding: .utf8
            )
        }
        let scenarios = try FakeSteps.loader.load(paths: [root.path])
        #expect(scenarios.map(\.name) == ["AC", "AZ", "B"])
        #expect(scenarios.first?.file == root.path + "/a/c.yml")
    }

    @Test func collectsErrorsOfEveryFileSorted() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("loader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "scenarios:\n  - scenario: A\n    steps: [fial]\n".write(
            to: root.appendingPathComponent("b.yml"),
            atomically: true,
            encoding: .utf8
        )
        try "scenarios:\n  - scenario: A\n    steps: [suceed]\n".write(
            to: root.appendingPathComponent("a.yml"),
            atomically: true,
            encoding: .utf8
        )
        #expect {
            try FakeSteps.loader.load(paths: [root.path, root.path + "/missing"])
        } throws: { error in
            let list = try #require(error as? DiagnosticList)
            return list.diagnostics.map(\.message) == [
                "Unknown step 'suceed'. Did you mean 'succeed'?",
                "Unknown step 'fial'. Did you mean 'fail'?",
                "No such file or folder (looked in \(root.standardizedFileURL.path)).",
            ]
        }
    }

    /// Issue 27: 20,000 unknown steps near `stub route` had a did-you-mean searched for each (about 11 s in
    /// debug), though only the first ``DiagnosticList/shownLimit`` are shown. Nothing is searched while
    /// loading; printing the list searches once per error shown, and those still say what was meant.
    @Test func suggestionsAreSearchedOnlyForTheErrorsShown() {
        let count = 20_000
        let steps = (0..<count).map { "      - stub rout\($0): x\n" }.joined()
        let tally = Suggestions.Tally()
        let printed = Suggestions.$tally.withValue(tally) { () -> String? in
            do throws(DiagnosticList) {
                let yaml = "scenarios:\n  - scenario: A\n    steps:\n" + steps
                _ = try FakeSteps.loader.load(yaml: yaml, file: "near.yml")
                return nil
            } catch {
                #expect(error.total == count)
                #expect(tally.count == 0, "no suggestion is searched for while loading")
                return error.description
            }
        }
        #expect(tally.count == DiagnosticList.shownLimit)
        let lines = printed?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        #expect(lines.first == "near.yml:4:9: error: Unknown step 'stub rout0'. Did you mean 'stub route'?")
        #expect(lines.filter { $0.hasSuffix("Did you mean 'stub route'?") }.count == DiagnosticList.shownLimit)
        #expect(lines.last == "… and 19,900 more errors")
    }

    @Test func setUpBindingsAreVisibleToEveryScenario() throws {
        let text = """
            set up:
              - create from factory: { factory: restaurant, as: place }
            scenarios:
              - scenario: A
                steps: [{ log: "${place}" }]
              - scenario: B
                steps:
                  - create from factory: { factory: review, as: review }
                  - log: "${place.factory} ${review.factory}"
            """
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "x.yml")
        #expect(scenarios.count == 2)
    }

    @Test func argumentsOfBareNamesAndNullValuesAreEmpty() throws {
        let text = "scenarios:\n  - scenario: A\n    steps:\n      - succeed\n      - succeed:\n"
        let scenarios = try FakeSteps.loader.load(yaml: text, file: "x.yml")
        #expect(scenarios.first?.steps.map(\.description) == ["succeed", "succeed"])
    }
}
