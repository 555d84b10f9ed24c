import Diagnostics
import Foundation
import YAMLSource

/// Loads one scenario file, collecting every diagnostic instead of stopping at the first.
struct ScenarioFileLoader {
    static let fileKeys = ["feature", "tags", "set up", "scenarios"]
    static let scenarioKeys = ["scenario", "tags", "steps"]
    /// How many scenarios of a large file are composed at once.
    static let itemsPerComposition = 64

    let file: String
    let source: YAMLText
    let registry: StepRegistry
    let buildContext: StepBuildContext
    private(set) var diagnostics: [Diagnostic] = []
    /// Added to the line of every node's mark: the line before the chunk being read (0 for the whole file).
    private var lineOffset = 0
    /// Composes the chunks of a file in the plain layout, with one alias budget for all of them.
    private var chunkComposer = YAMLComposer()

    init(file: String, source: YAMLText, registry: StepRegistry, buildContext: StepBuildContext) {
        self.file = file
        self.source = source
        self.registry = registry
        self.buildContext = buildContext
    }

    private var text: String { source.text }

    /// The file's scenarios. A file in the plain layout (top-level `key:` lines, `scenarios:` a block
    /// list) is composed one scenario at a time (``ScenarioFileChunks``), so that the YAML nodes of a
    /// large file never exist all at once; anything else, and any YAML error, goes through composing
    /// the whole document, whose diagnostics are the reference.
    mutating func load() -> [Scenario] {
        if let chunks = ScenarioFileChunks(text), let scenarios = load(chunks) { return scenarios }
        diagnostics = []
        lineOffset = 0
        return loadWholeDocument()
    }

    /// The scenarios of a file read chunk by chunk, or `nil` when a chunk is not what the layout promised
    /// (its YAML is invalid, or it is not one key or one list item): the whole document then decides.
    mutating func load(_ chunks: ScenarioFileChunks) -> [Scenario]? {
        var settings = FileSettings(file: file)
        for chunk in chunks.keys {
            guard let mapping = compose(chunk)?.pairs, mapping.count == 1, let (keyNode, value) = mapping.first else {
                return nil
            }
            lineOffset = chunk.lineOffset
            guard read(keyNode, value, into: &settings) else { return nil }  // `scenarios` is never a key chunk
        }
        var scenarios: [Scenario] = []
        var firstLines: [String: Int] = [:]
        // A batch of consecutive items at a time: composing has a fixed cost (a libyaml parser and its
        // buffers) that one item per composition would pay thousands of times.
        for start in stride(from: 0, to: chunks.scenarios.count, by: Self.itemsPerComposition) {
            let batch = chunks.scenarios[start..<min(start + Self.itemsPerComposition, chunks.scenarios.count)]
            guard let first = batch.first, let last = batch.last else { continue }
            let chunk = ScenarioFileChunks.Chunk(
                range: first.range.lowerBound..<last.range.upperBound,
                lineOffset: first.lineOffset
            )
            guard case .sequence(let items)? = compose(chunk)?.content, items.count == batch.count else { return nil }
            lineOffset = chunk.lineOffset
            scenarios += items.compactMap { scenario($0, in: settings, firstLines: &firstLines) }
        }
        lineOffset = 0
        return scenarios
    }

    /// A chunk's node, or `nil` for any error: the whole document then reports it.
    private mutating func compose(_ chunk: ScenarioFileChunks.Chunk) -> YAMLNode? {
        try? chunkComposer.compose(text[chunk.range])
    }

    /// Composes the whole document, then reads it: the reference path, for every layout and every YAML
    /// error.
    mutating func loadWholeDocument() -> [Scenario] {
        let root: YAMLNode
        do {
            var composer = YAMLComposer()
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
        return items.compactMap { scenario($0, in: settings, firstLines: &firstLines) }
    }

    // MARK: File keys

    /// What the top-level keys other than `scenarios` give every scenario of the file.
    struct FileSettings {
        var feature: String
        var tags: Set<String> = []
        var setUp: [Step] = []
        /// Names the file's set-up binds, visible to every scenario.
        var bindings: Set<String> = []

        init(file: String) {
            feature = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        }
    }

    /// Reads one top-level key into `file`, reporting unknown keys; `false` for `scenarios`, which the
    /// caller reads.
    private mutating func read(_ keyNode: YAMLNode, _ value: YAMLNode, into file: inout FileSettings) -> Bool {
        let key = keyNode.string ?? ""
        switch key {
        case "feature":
            if let name = name(value, key: key) { file.feature = name }
        case "tags":
            file.tags = tags(value)
        case "set up":
            if case .sequence(let items) = value.content {
                file.setUp = steps(items, bound: &file.bindings)
            } else if !value.isNull {
                report(.notAList(key: "set up"), at: location(of: value))
            }
        case "scenarios":
            return false
        default:
            report(
                .unknownFileKey(key, suggestion: Suggestions.didYouMean(key, in: Self.fileKeys)),
                at: location(of: keyNode)
            )
        }
        return true
    }

    // MARK: Scenarios

    private mutating func scenario(_ node: YAMLNode, in settings: FileSettings, firstLines: inout [String: Int])
        -> Scenario?
    {
        guard let mapping = node.pairs else {
            report(.scenarioNotMapping, at: location(of: node))
            return nil
        }
        var nameNode: YAMLNode?
        var tagsNode: YAMLNode?
        var stepsNode: YAMLNode?
        var unknownKeys: [YAMLNode] = []
        for (keyNode, value) in mapping {
            switch keyNode.string ?? "" {
            case "scenario": nameNode = value
            case "tags": tagsNode = value
            case "steps": stepsNode = value
            default: unknownKeys.append(keyNode)
            }
        }
        var name = "?"
        var valid = true
        if let nameNode {
            if let text = self.name(nameNode, key: "scenario") {
                name = text
                if text.trimmingCharacters(in: .whitespaces).isEmpty {
                    report(.emptyScenarioName, at: location(of: nameNode))
                    valid = false
                }
            } else {
                valid = false
            }
        } else {
            report(.missingScenarioName, at: location(of: node))
            valid = false
        }
        for keyNode in unknownKeys {
            let key = keyNode.string ?? ""
            report(
                .unknownScenarioKey(
                    key,
                    scenario: name,
                    suggestion: Suggestions.didYouMean(key, in: Self.scenarioKeys)
                ),
                at: location(of: keyNode)
            )
        }
        if valid, let nameNode {
            let line = location(of: nameNode).line
            if let first = firstLines[name] {
                report(.duplicateScenario(name, firstLine: first), at: location(of: nameNode))
            } else {
                firstLines[name] = line
            }
        }
        let tags = tagsNode.map { self.tags($0) } ?? []

        var steps: [Step] = []
        var bound = settings.bindings
        if let stepsNode {
            if case .sequence(let items) = stepsNode.content {
                if items.isEmpty { report(.emptySteps(scenario: name), at: location(of: stepsNode)) }
                steps = self.steps(items, bound: &bound)
            } else if stepsNode.isNull {
                report(.emptySteps(scenario: name), at: location(of: stepsNode))
            } else {
                report(.notAList(key: "steps"), at: location(of: stepsNode))
            }
        } else {
            report(.missingSteps(scenario: name), at: location(of: node))
        }
        guard valid else { return nil }
        return Scenario(
            name: name,
            tags: settings.tags.union(tags),
            location: location(of: node),
            feature: settings.feature,
            file: file,
            setUp: settings.setUp,
            steps: steps
        )
    }

    // MARK: Steps

    private mutating func steps(_ items: [YAMLNode], bound: inout Set<String>) -> [Step] {
        items.compactMap { step($0, bound: &bound) }
    }

    private mutating func step(_ node: YAMLNode, bound: inout Set<String>) -> Step? {
        let nameNode: YAMLNode
        let argumentsNode: YAMLNode?
        switch node.content {
        case .scalar:
            nameNode = node
            argumentsNode = nil
        case .mapping(let mapping) where mapping.count == 1:
            guard let pair = mapping.first else { return nil }
            nameNode = pair.key
            argumentsNode = pair.value
        case .mapping(let mapping):
            report(.stepNotOneKey(count: mapping.count), at: location(of: node))
            return nil
        case .sequence:
            report(.stepNotNameOrMapping, at: location(of: node))
            return nil
        }
        guard let name = nameNode.string else {
            report(.stepNotNameOrMapping, at: location(of: nameNode))
            return nil
        }
        let nameLocation = location(of: nameNode)
        guard let definition = registry.definition(named: name) else {
            report(
                .unknownStep(name, suggestion: Suggestions.didYouMean(name, in: registry.names)),
                at: nameLocation
            )
            // Bind its `as:` anyway so that later references do not pile up errors.
            if let value = argumentsNode?["as"]?.string { bound.insert(value) }
            return nil
        }

        var arguments =
            argumentsNode.map { self.arguments($0, stepName: definition.name, topLevel: true) }
            ?? StepArguments.none(stepName: definition.name, at: nameLocation)
        var binding: String?
        if case .mapping(var entries) = arguments.content, let index = entries.firstIndex(where: { $0.key == "as" }) {
            let entry = entries.remove(at: index)
            arguments.content = .mapping(entries)
            if case .scalar(let text, _) = entry.value.content, Self.isValidName(text) {
                if definition.bindsName {
                    binding = text
                } else {
                    report(.bindingNotAllowed(step: definition.name, name: text), at: entry.keyLocation)
                }
            } else {
                report(.invalidBindingName(entry.value.rendering), at: entry.value.location)
            }
        }
        arguments.bindingName = binding
        arguments.boundNames = bound

        for (text, location) in arguments.scalars {
            do throws(Interpolation.Problem) {
                for name in try Interpolation.parse(text) {
                    guard case .reference(let name, let keyPath) = name, !bound.contains(name) else { continue }
                    report(
                        .unboundName(name, reference: Interpolation.spelling(name: name, keyPath: keyPath)),
                        at: location
                    )
                }
            } catch {
                switch error {
                case .unterminated: report(.unterminatedReference(text), at: location)
                case .emptyName: report(.emptyReference(text), at: location)
                }
            }
        }
        if let binding { bound.insert(binding) }

        do throws(StepArgumentError) {
            var step = try definition.build(arguments, buildContext)
            step.location = nameLocation
            return step
        } catch {
            report(.argument(error.message), at: error.location)
            return nil
        }
    }

    private func arguments(_ node: YAMLNode, stepName: String, topLevel: Bool = false) -> StepArguments {
        let at = location(of: node)
        switch node.content {
        case .scalar(let text, let isPlain):
            if topLevel, node.isNull {
                return StepArguments(.none, at: at, stepName: stepName)
            }
            return StepArguments(.scalar(text, isPlain: isPlain), at: at, stepName: stepName)
        case .sequence(let sequence):
            return StepArguments(
                .sequence(sequence.map { arguments($0, stepName: stepName) }),
                at: at,
                stepName: stepName
            )
        case .mapping(let mapping):
            let entries = mapping.map { key, value in
                StepArguments.Entry(
                    key: key.string ?? "",
                    keyLocation: location(of: key),
                    value: arguments(value, stepName: stepName)
                )
            }
            return StepArguments(.mapping(entries), at: at, stepName: stepName)
        }
    }

    // MARK: Small parts

    private mutating func name(_ node: YAMLNode, key: String) -> String? {
        guard let text = node.string else {
            report(.notAName(key: key), at: location(of: node))
            return nil
        }
        return text
    }

    private mutating func tags(_ node: YAMLNode) -> Set<String> {
        guard case .sequence(let items) = node.content else {
            report(.tagsNotNames, at: location(of: node))
            return []
        }
        var tags: Set<String> = []
        for item in items {
            guard let text = item.string, !text.isEmpty else {
                report(.tagsNotNames, at: location(of: item))
                continue
            }
            tags.insert(text)
        }
        return tags
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }

    private func location(of node: YAMLNode?) -> SourceLocation {
        SourceLocation(file: file, line: (node?.line ?? 1) + lineOffset, column: node?.column ?? 1)
    }

    private mutating func report(_ error: LoadError, at location: SourceLocation) {
        diagnostics.append(Diagnostic(error.message, at: location, in: source.source))
    }
}

extension StepArguments {
    /// The node as text, for messages.
    fileprivate var rendering: String {
        if case .scalar(let text, _) = content { return text }
        return kindDescription
    }
}
