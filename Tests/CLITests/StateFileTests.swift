import Foundation
import Testing

/// The files a run leaves in `.scenario-run/`: `--rerun-failed`'s state keeps what a run did not run and
/// is named when it cannot be read; the kept store never replaces a file scenario-run did not write.
struct StateFileTests {
    static let mixed = """
        scenarios:
          - scenario: Passes
            steps: [succeed]
          - scenario: Fails
            steps: [{ fail: on purpose }]
          - scenario: Also fails
            steps: [{ fail: on purpose too }]
        """

    func failedNames(in project: URL) throws -> [String] { try CLI.failedNames(in: project) }

    @Test func aFilteredRunKeepsTheFailuresOfScenariosItDidNotRun() async throws {
        let project = try CLI.project(["Scenarios/mixed.yml": Self.mixed])
        _ = try await CLI.run(["--ci"], directory: project)
        #expect(try failedNames(in: project) == ["Also fails", "Fails"])
        // Only "Passes" runs: the two failures it did not run are still there to re-run.
        let filtered = try await CLI.run(["--ci", "--filter", "^Passes$"], directory: project)
        #expect(filtered.status == 0)
        #expect(try failedNames(in: project) == ["Also fails", "Fails"])
        let rerun = try await CLI.run(["--ci", "--rerun-failed"], directory: project)
        #expect(rerun.stdout.hasSuffix("0 passed, 2 failed\n"), "\(rerun.stdout)")
    }

    /// Issue 27: failures are kept by file and name; a passing scenario of another file with the same name
    /// is not re-run (it was), and a file named another way (`./Scenarios/…`) is the same file.
    @Test func rerunFailedKeepsFailuresByFileAndName() async throws {
        let project = try CLI.project([
            "Scenarios/a.yml": "scenarios:\n  - scenario: Same\n    steps: [{ fail: on purpose }]\n",
            "Scenarios/b.yml": "scenarios:\n  - scenario: Same\n    steps: [succeed]\n",
        ])
        let first = try await CLI.run(["--ci"], directory: project)
        #expect(first.stdout.hasSuffix("1 passed, 1 failed\n"), "\(first.stdout)")
        let rerun = try await CLI.run(["--ci", "--rerun-failed", "./Scenarios"], directory: project)
        #expect(rerun.stdout.hasSuffix("0 passed, 1 failed\n"), "only a.yml's 'Same': \(rerun.stdout)")
        let data = try String(
            contentsOf: project.appendingPathComponent(".scenario-run/last-failed.json"),
            encoding: .utf8
        )
        #expect(data.contains(#""file" : "Scenarios\/a.yml""#), "\(data)")
    }

    @Test func aCorruptStateFileIsNamedAndOnlyRerunFailedStops() async throws {
        let project = try CLI.project(["Scenarios/mixed.yml": Self.mixed])
        let state = project.appendingPathComponent(".scenario-run/last-failed.json")
        try FileManager.default.createDirectory(
            at: state.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data("{\"failed\": [1, 2".utf8).write(to: state)

        let rerun = try await CLI.run(["--ci", "--rerun-failed"], directory: project)
        #expect(rerun.status == 2)
        #expect(
            rerun.stderr.contains(
                "error: Cannot read '\(state.path)' (it is not the JSON scenario-run writes): it should hold the failed scenarios as {\"failed\": [{\"file\": ..., \"name\": ...}]}. Delete it to start afresh."
            ),
            "\(rerun.stderr)"
        )
        #expect(rerun.stdout.isEmpty)

        let run = try await CLI.run(["--ci"], directory: project)
        #expect(run.status == 1)
        #expect(run.stderr.contains("warning: Cannot read '\(state.path)'"))
        #expect(try failedNames(in: project) == ["Also fails", "Fails"], "the run writes a good file again")
    }

    @Test func theKeptStoreReplacesItsOwnFileButNeverSomeoneElses() async throws {
        let project = try CLI.project(["Scenarios/one.yml": "scenarios:\n  - scenario: One\n    steps: [succeed]\n"])
        let kept = project.appendingPathComponent(".scenario-run/last-store.sqlite")
        let first = try await CLI.run(["--ci"], directory: project, environment: ["KIF_SKIP_TEAR_DOWN": "1"])
        #expect(first.status == 0)
        #expect(first.stdout.contains("the last scenario's store is kept at \(kept.path)"))
        let second = try await CLI.run(["--ci"], directory: project, environment: ["KIF_SKIP_TEAR_DOWN": "1"])
        #expect(second.status == 0 && second.stderr.isEmpty, "its own file is replaced: \(second.stderr)")

        let notes = Data("my notes, not a store".utf8)
        try notes.write(to: kept)
        let third = try await CLI.run(["--ci"], directory: project, environment: ["KIF_SKIP_TEAR_DOWN": "1"])
        #expect(
            third.stderr.contains(
                "error: Could not keep the store: Cannot write '\(kept.path)': a file scenario-run did not keep is there; move it away or delete it to keep the store."
            ),
            "\(third.stderr)"
        )
        #expect(try Data(contentsOf: kept) == notes, "the user's file is untouched")
    }
}
