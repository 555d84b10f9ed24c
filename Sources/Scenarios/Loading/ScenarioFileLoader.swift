import Diagnostics
import Foundation
import SharedValues
import YAMLSource

/// Loads one scenario file, collecting every diagnostic instead of stopping at the first.
struct ScenarioFileLoader {
    /// How many scenarios of a large file are composed at once.
    static let itemsPerComposition = 64

    let file: String
    let source: YAMLText
    let registry: StepRegistry
    let buildContext: StepBuildContext
    private(set) var diagnostics: DiagnosticCollection = []
    /// Added to the line of every node's mark: the line before the chunk being read (0 for the whole file).
    var lineOffset = 0
    /// Composes the chunks of a file in the plain layout, with one alias budget for all of them.
    private var chunkComposer = YAMLComposer()
    /// What the rows of the file's outlines may still expand to: each row's steps are the outline's
    /// steps written out again, so rows times steps is bounded per file, as aliases are.
    var outlineBudget = (nodes: OutlineLimits.nodes, bytes: OutlineLimits.bytes)
    /// Whether the outline budget ran out (reported once, at the row where it did).
    var outlineBudgetSpent = false
    /// Whether steps keep their actions (``Step/describedOnly`` when not): see ``ScenarioLoader/keepsActions``.
    var keepsActions = true
    /// Steps built once for the file, by what was written (``StepDefinition/buildsOncePerFile``); at
    /// most ``sharedStepsLimit``, so that a file of all different steps keeps no second copy of them.
    var builtSteps: [WrittenStep: Step] = [:]
    /// How many built steps a file keeps to share.
    static let sharedStepsLimit = 256
    /// Steps written as flow collections, by their name and text (``WrittenSpan``): a step written again
    /// the same way is found without its arguments being read — on a line of its own, without them being
    /// composed (``leavingOutKnownLines(of:)``); at most ``sharedStepsLimit``.
    var builtBySpan: [WrittenSpan: Step] = [:]
    /// The text being composed, when a node's ``YAMLNode/flowSpan`` counts its bytes (an ASCII file:
    /// libyaml counts characters); `nil` otherwise, and for a part whose scenarios are all in the plain
    /// shape (every step line of them left out, no span of it read).
    var composedText: Substring?
    /// The arguments left out of the text being composed, by where their empty collection stands in it.
    var leftOut: [Int: KnownLines.LeftOut] = [:]
    /// Whether the file is ASCII, so that character offsets are byte offsets.
    let isASCII: Bool

    init(file: String, source: YAMLText, registry: StepRegistry, buildContext: StepBuildContext) {
        self.file = file
        self.source = source
        self.registry = registry
        self.buildContext = buildContext
        isASCII = source.isASCII
    }

    var text: String { source.text }

    /// The file's scenarios. A file in the plain layout (top-level `key:` lines, `scenarios:` a block
    /// list) is composed one scenario at a time (``ScenarioFileChunks``), so that the YAML nodes of a
    /// large file never exist all at once; anything else, and any YAML error, goes through composing
    /// the whole document, whose diagnostics are the reference.
    mutating func load() -> [Scenario] {
        if let chunks = ScenarioFileChunks(text), let scenarios = load(chunks) { return scenarios }
        diagnostics = []
        lineOffset = 0
        outlineBudget = (OutlineLimits.nodes, OutlineLimits.bytes)
        outlineBudgetSpent = false
        return loadWholeDocument()
    }

    /// The scenarios of a file read chunk by chunk, or `nil` when a chunk is not what the layout promised
    /// (its YAML is invalid, or it is not one key or one list item): the whole document then decides.
    mutating func load(_ chunks: ScenarioFileChunks) -> [Scenario]? {
        guard let settings = fileSettings(chunks.keys) else { return nil }
        // For the workers a process without actions hands its scenarios to (``Scenario/itemSource``).
        let keys = keepsActions ? [] : chunks.keys.map(part)
        // One item is one scenario but for an outline's rows: made to size, not grown by doubling (a suite
        // of 10,000 scenarios held its last two buffers, 5 MB, at the peak of the run's memory).
        var scenarios: [Scenario] = []
        scenarios.reserveCapacity(chunks.scenarios.count)
        var firstLines: [String: Int] = [:]
        // A batch of consecutive items at a time: composing has a fixed cost (a libyaml parser and its
        // buffers) that one item per composition would pay thousands of times. The first item alone, so
        // that the steps it builds stand for the lines written the same way in every other
        // (``leavingOutKnownLines(of:)``) — unless the file holds an alias, which may name an anchor of it.
        let firstAlone = !text[...].contains(ascii: UInt8(ascii: "*"))
        var end = 0
        while end < chunks.scenarios.count {
            let start = end
            let count = start == 0 && firstAlone ? 1 : Self.itemsPerComposition
            end = min(start + count, chunks.scenarios.count)
            let batch = chunks.scenarios[start..<end]
            guard let first = batch.first, let last = batch.last else { continue }
            let chunk = ScenarioFileChunks.Chunk(
                range: first.range.lowerBound..<last.range.upperBound,
                lineOffset: first.lineOffset
            )
            guard let items = composeScenarios(chunk), items.count == batch.count else { return nil }
            lineOffset = chunk.lineOffset
            for (item, written) in zip(items, batch) {
                var made = self.scenarios(item, in: settings, firstLines: &firstLines)
                if !keepsActions {
                    let source = ItemSource(item: part(written), keys: keys)
                    for index in made.indices { made[index].itemSource = source }
                }
                scenarios += made
            }
        }
        lineOffset = 0
        leftOut = [:]
        return scenarios
    }

    /// A chunk of the text as bytes of the file (after its byte-order mark, if it has one).
    func part(_ chunk: ScenarioFileChunks.Chunk) -> ItemSource.Part {
        let start = text.utf8.distance(from: text.startIndex, to: chunk.range.lowerBound) + source.bytesBeforeText
        let count = text.utf8.distance(from: chunk.range.lowerBound, to: chunk.range.upperBound)
        return ItemSource.Part(bytes: start..<(start + count), lineOffset: chunk.lineOffset)
    }

    /// The file's own keys (every chunk but the scenarios), or `nil` when a chunk is not one key.
    mutating func fileSettings(_ keys: [ScenarioFileChunks.Chunk]) -> FileSettings? {
        var settings = FileSettings(file: file)
        for chunk in keys {
            guard let mapping = compose(chunk)?.pairs, mapping.count == 1, let (keyNode, value) = mapping.first else {
                return nil
            }
            lineOffset = chunk.lineOffset
            guard read(keyNode, value, into: &settings) else { return nil }  // `scenarios` is never a key chunk
        }
        finishFileKeys(&settings)
        lineOffset = 0
        return settings
    }

    /// The scenarios of one item of the file's `scenarios:` list (an outline's: one a row), or `nil`
    /// when the item does not compose on its own (an alias to an anchor of another item): what
    /// ``ScenarioBuilder`` builds when a worker is handed a scenario of the item.
    mutating func scenarios(of item: ScenarioFileChunks.Chunk, in settings: FileSettings) -> [Scenario]? {
        guard let items = composeScenarios(item), items.count == 1 else { return nil }
        lineOffset = item.lineOffset
        defer {
            lineOffset = 0
            leftOut = [:]
        }
        var firstLines: [String: Int] = [:]
        return scenarios(items[0], in: settings, firstLines: &firstLines)
    }

    /// A chunk's node, or `nil` for any error: the whole document then reports it.
    private mutating func compose(_ chunk: ScenarioFileChunks.Chunk) -> YAMLNode? {
        composedText = isASCII ? text[chunk.range] : nil
        leftOut = [:]
        return try? chunkComposer.compose(text[chunk.range])
    }

    /// The scenarios of a chunk of the `scenarios:` list, or `nil` for any error. The arguments of its
    /// known step lines are left out when every one comes back as a step's (``leftOut``); otherwise, or
    /// when that text does not compose, the chunk is composed as written.
    private mutating func composeScenarios(_ chunk: ScenarioFileChunks.Chunk) -> [ScenarioItem]? {
        if let known = leavingOutKnownLines(of: text[chunk.range]) {
            // Every scenario in the plain shape: known without composing (DECISIONS 210), and every step line
            // of it left out — built before, no text of it read again (DECISIONS 216, 217).
            if let plain = known.plain {
                composedText = nil
                leftOut = known.leftOut
                return plain.map { .plain($0) }
            }
            var composer = chunkComposer  // its alias budget is spent only by the composition kept
            let knownText = known.text
            if let items = (try? composer.compose(knownText[...]))?.items,
                Self.leftOutAreAllSteps(items, known.leftOut)
            {
                chunkComposer = composer
                composedText = knownText[...]
                leftOut = known.leftOut
                return items.map { .composed($0) }
            }
        }
        return compose(chunk)?.items?.map { .composed($0) }
    }

    /// An item of the `scenarios:` list: its node as composed, or its scan in the plain shape.
    enum ScenarioItem {
        case composed(YAMLNode)
        case plain(PlainScenario)
    }

    /// Composes the whole document, then reads it: the reference path, for every layout and every YAML
    /// error.
    mutating func loadWholeDocument() -> [Scenario] {
        let root: YAMLNode
        do {
            var composer = YAMLComposer()
            composedText = isASCII ? text[...] : nil
            leftOut = [:]
            guard let node = try composer.compose(source) else {
                report(.emptyFile, at: SourceLocation(file: file, line: 1, column: 1))
                return []
            }
            root = node
        } catch {
            diagnostics.append(error.diagnostic(file: file, source: source.source))
            return []
        }
        guard case .mapping(let mapping) = root.content else {
            report(.fileNotMapping, at: location(of: root))
            return []
        }

        var settings = FileSettings(file: file)
        var scenariosNode: YAMLNode?
        for (keyNode, value) in mapping where !read(keyNode, value, into: &settings) {
            scenariosNode = value
        }
        finishFileKeys(&settings)

        guard let scenariosNode else {
            report(.missingScenarios, at: location(of: root))
            return []
        }
        guard case .sequence(let items) = scenariosNode.content else {
            report(.notAList(key: "scenarios"), at: location(of: scenariosNode))
            return []
        }
        if items.isEmpty {
            report(.noScenarios, at: location(of: scenariosNode))
        }
        var firstLines: [String: Int] = [:]
        return items.flatMap { scenarios($0, in: settings, firstLines: &firstLines) }
    }

    // MARK: Diagnostics

    func location(of node: YAMLNode?) -> SourceLocation {
        SourceLocation(file: file, line: (node?.line ?? 1) + lineOffset, column: node?.column ?? 1)
    }

    mutating func report(_ error: LoadError, at location: SourceLocation) {
        diagnostics.append(Diagnostic(error.text, suggestion: error.suggestion, at: location, in: source.source))
    }

    /// Drops the diagnostics after the first `start` that repeat an earlier one of them: the rows of an
    /// outline share its steps, and a mistake in a step is said once, not once per row.
    mutating func dropRepeatedDiagnostics(since start: Int) {
        diagnostics.dropRepeats(appendedSince: start)
    }
}

/// What the rows of one file's outlines may expand to. Task-local so that a test can lower them
/// (`OutlineLimits.$nodes.withValue(30_000) { … }`) instead of building a million nodes.
package enum OutlineLimits {
    /// The most YAML nodes (1,000 rows of 100 nodes is a tenth of it; reached, a debug build has spent
    /// about 5 s and 70 MB on it).
    @TaskLocal package static var nodes = 1_000_000
    /// The most bytes of text the placeholders are replaced with.
    @TaskLocal package static var bytes = 16 * 1024 * 1024
}
