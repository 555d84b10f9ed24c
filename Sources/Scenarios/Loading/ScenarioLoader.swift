package import Diagnostics
package import Foundation
import YAMLSource

/// Loads scenario files into ``Scenario`` values, resolving every step against a registry and reporting
/// every problem of every file at once, compiler-style.
///
/// ```swift
/// let loader = ScenarioLoader(registry: registry, buildContext: StepBuildContext(fixturesDirectory: fixtures))
/// do {
///     let scenarios = try loader.load(paths: ["Scenarios"])
/// } catch {
///     print(error)  // Scenarios/reviews.yml:7:9: error: Unknown step 'stub rout'. Did you mean 'stub route'?
/// }
/// ```
package struct ScenarioLoader: Sendable {
    package var registry: StepRegistry
    package var buildContext: StepBuildContext
    /// Whether the scenarios' steps keep their actions. `false` for a process that reports scenarios
    /// other processes run (the parent of `--jobs` workers): every step is still built, so every
    /// argument is checked, and then kept as its description only (``Step/describedOnly``) — the
    /// actions of a large suite are most of what loading it keeps.
    package var keepsActions = true

    package init(registry: StepRegistry, buildContext: StepBuildContext = StepBuildContext()) {
        self.registry = registry
        self.buildContext = buildContext
    }

    /// Loads files and folders (searched recursively for `*.yml` / `*.yaml`), in path order.
    package func load(paths: [String]) throws(DiagnosticList) -> [Scenario] {
        let (files, problems) = ScenarioFiles.find(in: paths)
        var diagnostics = DiagnosticCollection(problems)
        var scenarios: [Scenario] = []
        for file in files {
            let source: YAMLText
            do {
                source = try YAMLText.read(contentsOf: file, file: file)
            } catch {
                diagnostics += error.diagnostics
                continue
            }
            var fileLoader = ScenarioFileLoader(
                file: file,
                source: source,
                registry: registry,
                buildContext: buildContext
            )
            fileLoader.keepsActions = keepsActions
            let loaded = fileLoader.load()
            // The first file's list kept as it is: appended to an empty list, it was copied whole.
            if scenarios.isEmpty { scenarios = loaded } else { scenarios += loaded }
            diagnostics += fileLoader.diagnostics
        }
        guard diagnostics.isEmpty else { throw DiagnosticList(diagnostics) }
        return scenarios
    }

    /// Loads files given as URLs.
    package func load(files: [URL]) throws(DiagnosticList) -> [Scenario] {
        try load(paths: files.map(\.path))
    }

    /// Loads one file's text; `file` is the name used in diagnostics and scenario ids.
    package func load(yaml: String, file: String) throws(DiagnosticList) -> [Scenario] {
        let source = try YAMLText(checking: yaml, file: file)
        var fileLoader = ScenarioFileLoader(file: file, source: source, registry: registry, buildContext: buildContext)
        fileLoader.keepsActions = keepsActions
        let scenarios = fileLoader.load()
        guard fileLoader.diagnostics.isEmpty else { throw DiagnosticList(fileLoader.diagnostics) }
        return scenarios
    }

    /// The scenario files a run of `paths` would load, in order (for `--list` and `check`).
    package static func scenarioFiles(in paths: [String]) throws(DiagnosticList) -> [String] {
        let (files, problems) = ScenarioFiles.find(in: paths)
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return files
    }
}
