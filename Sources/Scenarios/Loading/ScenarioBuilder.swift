import Diagnostics
import YAMLSource

/// Builds a scenario when it is asked for, by its identity and the line it is written on, instead of
/// loading every file first — what a worker does with each scenario its parent hands it. The parent has
/// loaded and checked every file; a worker builds only the scenarios it runs and keeps none of them, so
/// that it holds a file's text and where its items start, not the whole suite a second time.
///
/// A file in the plain layout (``ScenarioFileChunks``) is read key by key once, then one item is
/// composed and built per request; any other file, and an item that does not compose on its own, is
/// loaded whole once and its scenarios kept. A scenario the file no longer holds at that line (the
/// file changed after the parent loaded it) is `nil`.
///
/// ```swift
/// var builder = ScenarioBuilder(registry: registry, buildContext: buildContext)
/// let scenario = builder.scenario(ScenarioID(file: "Scenarios/reviews.yml", name: "Posting"), line: 12)
/// ```
package struct ScenarioBuilder {
    private enum File {
        /// Read key by key: the loader (holding the text), the file's own keys, and its items in order.
        case items(ScenarioFileLoader, ScenarioFileLoader.FileSettings, [ScenarioFileChunks.Chunk])
        /// Loaded whole (another layout, or an item that does not compose alone).
        case whole([Scenario])
        /// It cannot be read, or does not load without errors, any more.
        case unreadable
    }

    private let registry: StepRegistry
    private let buildContext: StepBuildContext
    private var files: [String: File] = [:]

    package init(registry: StepRegistry, buildContext: StepBuildContext) {
        self.registry = registry
        self.buildContext = buildContext
    }

    /// The scenario `id`, whose own line (``Scenario/location``: an outline row's is the row's) is
    /// `line`, built now; `nil` when its file no longer holds it there.
    package mutating func scenario(_ id: ScenarioID, line: Int) -> Scenario? {
        let file = files[id.file] ?? open(id.file)
        files[id.file] = file
        switch file {
        case .unreadable:
            return nil
        case .whole(let scenarios):
            return scenarios.first { $0.id == id && $0.location.line == line }
        case .items(var loader, let settings, let items):
            // The item holding the line: the last one starting before it (`lineOffset` lines precede it).
            var low = 0
            var high = items.count
            while low < high {
                let middle = (low + high) / 2
                if items[middle].lineOffset < line { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            guard let built = loader.scenarios(of: items[low - 1], in: settings) else {
                files[id.file] = whole(id.file)
                return scenario(id, line: line)
            }
            guard loader.diagnostics.isEmpty else { return nil }
            return built.first { $0.id == id && $0.location.line == line }
        }
    }

    private func open(_ path: String) -> File {
        guard let source = try? YAMLText.read(contentsOf: path, file: path) else { return .unreadable }
        var loader = ScenarioFileLoader(file: path, source: source, registry: registry, buildContext: buildContext)
        guard let chunks = ScenarioFileChunks(source.text), let settings = loader.fileSettings(chunks),
            loader.diagnostics.isEmpty
        else { return whole(path) }
        return .items(loader, settings, chunks.scenarios)
    }

    private func whole(_ path: String) -> File {
        guard let source = try? YAMLText.read(contentsOf: path, file: path) else { return .unreadable }
        var loader = ScenarioFileLoader(file: path, source: source, registry: registry, buildContext: buildContext)
        let scenarios = loader.load()
        return loader.diagnostics.isEmpty ? .whole(scenarios) : .unreadable
    }
}
