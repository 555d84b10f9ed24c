import Diagnostics
import Foundation
import RunPipeline
import Scenarios
import Steps
import StubServer
import Synchronization

/// What a run knows of its project that `--watch` reloads: the suite, the scenarios loaded from it, and
/// the runner (for plans, and the scenarios this process runs itself). Read by every run; replaced when
/// watched files change.
final class WatchSession: Sendable {
    struct Current: Sendable {
        var suite: ScenarioSuite
        var loaded: [Scenario]
        var runner: ScenarioRunner
        var server: StubServer
        var selection: ScenarioSelection
    }

    /// What a batch of changed files leads to.
    enum Update: Sendable {
        /// Run `scenarios` (of the selection now loaded); `changed` says why, for people.
        case run([Scenario], changed: String)
        /// The files cannot be loaded (diagnostics with their carets) or the options no longer select.
        case failed(String)
    }

    private let current: Mutex<Current>
    private let reload: @Sendable (Current, _ everything: Bool) async throws -> Current

    /// - Parameter reload: builds the state again from the files (the suite itself too when
    ///   `everything`: settings, `server.yml` or fixtures changed).
    init(_ current: Current, reload: @escaping @Sendable (Current, Bool) async throws -> Current) {
        self.current = Mutex(current)
        self.reload = reload
    }

    var state: Current { current.withLock { $0 } }

    /// The files a watch follows: every scenario file loaded and `scenario-run.yml`; the folders: the
    /// fixtures (with `server.yml`). The app's Swift code is not watched: it needs a build.
    func watched() -> (files: [String], folders: [String]) {
        let state = self.state
        var files = Array(Set(state.loaded.map(\.file))).sorted()
        files.append(state.suite.directory.appendingPathComponent("scenario-run.yml").path)
        return (files, [state.suite.fixtures.path])
    }

    /// Reloads after `changed` (absolute paths): a change to scenario files only re-runs their
    /// scenarios; anything else (settings, `server.yml`, a fixture) reloads everything and re-runs the
    /// whole selection.
    func update(after changed: Set<String>) async -> Update {
        let before = state
        let scenarioFiles = Set(before.loaded.map { FileWatcher.absolute($0.file) })
        let onlyScenarios = changed.isSubset(of: scenarioFiles)
        let next: Current
        do {
            next = try await reload(before, !onlyScenarios)
        } catch let diagnostics as DiagnosticList {
            return .failed(Terminal.loadErrors(diagnostics, then: "fix the file to run again."))
        } catch {
            return .failed("error: \(error)")
        }
        current.withLock { $0 = next }
        let selected = next.selection.select(next.loaded)
        let names = changed.map { ScenarioSuite.displayPath(URL(fileURLWithPath: $0), from: next.suite.directory) }
            .sorted().joined(separator: ", ")
        guard onlyScenarios else { return .run(selected, changed: names) }
        return .run(selected.filter { changed.contains(FileWatcher.absolute($0.file)) }, changed: names)
    }
}
