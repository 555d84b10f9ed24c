import Diagnostics
import Glibc
import YAMLSource

/// Builds a scenario when it is asked for, by its identity and the line it is written on, instead of
/// loading every file first — what a worker does with each scenario its parent hands it. The parent has
/// loaded and checked every file; a worker builds only the scenarios it runs and keeps none of them.
///
/// Handed with its ``ItemSource`` (where the parent found its item and the file's own keys), a scenario
/// is built from those bytes of its file, read again: the worker never reads the rest. Without one, a
/// file in the plain layout (``ScenarioFileChunks``) is read once to find where each item is written (not
/// kept), and the item read again; any other file, and an item that does not compose on its own, is
/// loaded whole once and its scenarios kept. A scenario the file no longer holds at that line (the file
/// changed after the parent loaded it) is `nil`.
///
/// ```swift
/// var builder = ScenarioBuilder(registry: registry, buildContext: buildContext)
/// let scenario = builder.scenario(ScenarioID(file: "Scenarios/reviews.yml", name: "Posting"), line: 12)
/// ```
package struct ScenarioBuilder {
    private enum File {
        /// Read key by key: the file's own keys, and where its items are (the text itself is not kept:
        /// each item is read again from the file when it is asked for).
        case items(ScenarioFileLoader.FileSettings, [ItemSource.Part])
        /// Loaded whole (another layout, or an item that does not compose alone).
        case whole([Scenario])
        /// It cannot be read, or does not load without errors, any more.
        case unreadable
    }

    private let registry: StepRegistry
    private let buildContext: StepBuildContext
    private var files: [String: File] = [:]
    /// Each file's steps built once (``StepDefinition/buildsOncePerFile``), kept across the scenarios
    /// built from it; at most ``ScenarioFileLoader/sharedStepsLimit`` a file.
    private var builtSteps: [String: [WrittenStep: Step]] = [:]
    /// Each file's steps by their written text (``ScenarioFileLoader/builtBySpan``), kept likewise.
    private var builtBySpan: [String: [WrittenSpan: Step]] = [:]
    /// Each file's own keys as last read from a scenario's ``ItemSource``, and where they were.
    private var keySettings: [String: (keys: [ItemSource.Part], settings: ScenarioFileLoader.FileSettings)] = [:]

    package init(registry: StepRegistry, buildContext: StepBuildContext) {
        self.registry = registry
        self.buildContext = buildContext
    }

    /// The scenario `id`, whose own line (``Scenario/location``: an outline row's is the row's) is
    /// `line`, built now; `nil` when its file no longer holds it there. With its `source` (where the
    /// parent found its item and the file's keys), only those bytes of the file are read.
    package mutating func scenario(_ id: ScenarioID, line: Int, source: ItemSource? = nil) -> Scenario? {
        if let source {
            guard let settings = settings(of: id.file, keys: source.keys) else { return nil }
            switch build(source.item, of: id.file, in: settings) {
            case .built(let scenarios): return scenarios.first { $0.id == id && $0.location.line == line }
            case .refused: return nil
            case .notAlone: break  // The file is read as it would be without a source.
            }
        }
        let file = files[id.file] ?? open(id.file)
        files[id.file] = file
        switch file {
        case .unreadable:
            return nil
        case .whole(let scenarios):
            return scenarios.first { $0.id == id && $0.location.line == line }
        case .items(let settings, let items):
            // The item holding the line: the last one starting before it (`lineOffset` lines precede it).
            var low = 0
            var high = items.count
            while low < high {
                let middle = (low + high) / 2
                if items[middle].lineOffset < line { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            switch build(items[low - 1], of: id.file, in: settings) {
            case .built(let scenarios): return scenarios.first { $0.id == id && $0.location.line == line }
            case .refused: return nil
            case .notAlone:
                files[id.file] = whole(id.file)
                return scenario(id, line: line)
            }
        }
    }

    /// What building one item gave.
    private enum Built {
        case built([Scenario])
        /// Its bytes cannot be read, or it does not build without errors (the file changed).
        case refused
        /// It does not compose on its own (an alias to an anchor of another item).
        case notAlone
    }

    /// The scenarios of the item, read again from the file: a file changed since (its bytes are other
    /// ones now) gives another scenario or none, never a wrong one (the caller compares the identity and
    /// the line).
    private mutating func build(_ item: ItemSource.Part, of path: String, in settings: ScenarioFileLoader.FileSettings)
        -> Built
    {
        guard let text = Self.read(item.bytes, of: path),
            let source = try? YAMLText(checking: text, file: path)
        else { return .refused }
        var loader = ScenarioFileLoader(file: path, source: source, registry: registry, buildContext: buildContext)
        loader.builtSteps = builtSteps.removeValue(forKey: path) ?? [:]
        loader.builtBySpan = builtBySpan.removeValue(forKey: path) ?? [:]
        defer {
            builtSteps[path] = loader.builtSteps
            builtBySpan[path] = loader.builtBySpan
        }
        let chunk = ScenarioFileChunks.Chunk(range: text.startIndex..<text.endIndex, lineOffset: item.lineOffset)
        guard let built = loader.scenarios(of: chunk, in: settings) else { return .notAlone }
        return loader.diagnostics.isEmpty ? .built(built) : .refused
    }

    /// The file's own keys read from `keys` (the bytes the parent found them at), kept while the next
    /// scenario of the file names the same; `nil` when they cannot be read or read wrong (the file
    /// changed).
    private mutating func settings(of path: String, keys: [ItemSource.Part]) -> ScenarioFileLoader.FileSettings? {
        if let kept = keySettings[path], kept.keys == keys { return kept.settings }
        var joined = ""
        var bounds: [(bytes: Range<Int>, lineOffset: Int)] = []
        for key in keys {
            guard let text = Self.read(key.bytes, of: path) else { return nil }
            let start = joined.utf8.count
            joined += text
            bounds.append((start..<joined.utf8.count, key.lineOffset))
        }
        guard let source = try? YAMLText(checking: joined, file: path) else { return nil }
        let text = source.text
        let chunks = bounds.map { bound in
            ScenarioFileChunks.Chunk(
                range: text.utf8.index(
                    text.startIndex,
                    offsetBy: bound.bytes.lowerBound
                )..<text.utf8.index(text.startIndex, offsetBy: bound.bytes.upperBound),
                lineOffset: bound.lineOffset
            )
        }
        var loader = ScenarioFileLoader(file: path, source: source, registry: registry, buildContext: buildContext)
        guard let settings = loader.fileSettings(chunks), loader.diagnostics.isEmpty else { return nil }
        keySettings[path] = (keys, settings)
        return settings
    }

    /// How many files were read to find their items, or loaded whole: for tests.
    var filesOpened: Int { files.count }

    /// How many files are loaded whole (not read item by item): for tests.
    var filesLoadedWhole: Int {
        files.values.count { if case .whole = $0 { true } else { false } }
    }

    private func open(_ path: String) -> File {
        guard let source = try? YAMLText.read(contentsOf: path, file: path) else { return .unreadable }
        var loader = ScenarioFileLoader(file: path, source: source, registry: registry, buildContext: buildContext)
        guard let chunks = ScenarioFileChunks(source.text), let settings = loader.fileSettings(chunks.keys),
            loader.diagnostics.isEmpty
        else { return whole(path) }
        // Where each item is in the file's bytes, as the parent of workers finds it.
        let items = chunks.scenarios.map(loader.part)
        return .items(settings, items)
    }

    private func whole(_ path: String) -> File {
        guard let source = try? YAMLText.read(contentsOf: path, file: path) else { return .unreadable }
        var loader = ScenarioFileLoader(file: path, source: source, registry: registry, buildContext: buildContext)
        let scenarios = loader.load()
        return loader.diagnostics.isEmpty ? .whole(scenarios) : .unreadable
    }

    /// The bytes `range` of the file at `path` as text; `nil` when they cannot all be read, or are not
    /// UTF-8.
    private static func read(_ range: Range<Int>, of path: String) -> String? {
        guard range.count <= YAMLLimits.maxFileBytes else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
                return pread(descriptor, rest.baseAddress, rest.count, off_t(range.lowerBound + done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
