import Diagnostics
import Foundation
import YAMLSource

/// The schema of a scenario file: its top-level keys, and each scenario's keys.
extension ScenarioFileLoader {
    static let fileKeys = ["feature", "tags", "set up", "tear down", "skip", "scenarios"]
    static let scenarioKeys = ["scenario", "tags", "skip", "examples", "steps"]

    // MARK: File keys

    /// What the top-level keys other than `scenarios` give every scenario of the file.
    /// What a `skip:` says.
    enum SkipSetting {
        case run
        case skip(String)
    }

    struct FileSettings {
        var feature: String
        var tags: Set<String> = []
        var setUp: [Step] = []
        /// The file's `tear down` steps, built once every key is read (they see the set-up's names).
        var tearDown: [Step] = []
        /// The `tear down` list, kept until every key is read (it may come before `set up`), and the
        /// line offset of the part of the file it was composed from.
        var tearDownItems: [YAMLNode]?
        var tearDownLineOffset = 0
        /// Why every scenario of the file is skipped (`skip:`), if they are.
        var skip: String?
        /// Names the file's set-up binds, visible to every scenario.
        var bindings = BoundNames()

        init(file: String) {
            feature = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        }
    }

    /// Reads one top-level key into `file`, reporting unknown keys; `false` for `scenarios`, which the
    /// caller reads.
    mutating func read(_ keyNode: YAMLNode, _ value: YAMLNode, into file: inout FileSettings) -> Bool {
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
        case "tear down":
            if case .sequence(let items) = value.content {
                file.tearDownItems = items
                file.tearDownLineOffset = lineOffset
            } else if !value.isNull {
                report(.notAList(key: "tear down"), at: location(of: value))
            }
        case "skip":
            if case .skip(let reason) = skipSetting(value) { file.skip = reason }
        case "scenarios":
            return false
        default:
            report(
                .unknownFileKey(key, suggestion: Suggestion(for: key, in: Self.fileKeys)),
                at: location(of: keyNode)
            )
        }
        return true
    }

    /// Builds the file's `tear down` once every top-level key is read: its steps see the names the
    /// file's `set up` binds, wherever the two keys are written.
    mutating func finishFileKeys(_ file: inout FileSettings) {
        guard let items = file.tearDownItems else { return }
        var bound = file.bindings
        // Its steps' lines are those of the part it was read from (a file read key by key).
        let offset = lineOffset
        lineOffset = file.tearDownLineOffset
        file.tearDown = steps(items, bound: &bound)
        lineOffset = offset
        file.tearDownItems = nil
    }

    // MARK: Scenarios

    /// The scenario an item of `scenarios` is — or, for an outline (`examples:`), one per row.
    mutating func scenarios(_ node: YAMLNode, in settings: FileSettings, firstLines: inout [String: Int])
        -> [Scenario]
    {
        guard let mapping = node.pairs else {
            report(.scenarioNotMapping, at: location(of: node))
            return []
        }
        var nameNode: YAMLNode?
        var tagsNode: YAMLNode?
        var stepsNode: YAMLNode?
        var skipNode: YAMLNode?
        var examplesNode: YAMLNode?
        var unknownKeys: [YAMLNode] = []
        for (keyNode, value) in mapping {
            switch keyNode.string ?? "" {
            case "scenario": nameNode = value
            case "tags": tagsNode = value
            case "steps": stepsNode = value
            case "skip": skipNode = value
            case "examples": examplesNode = value
            default: unknownKeys.append(keyNode)
            }
        }
        var name = "?"
        var valid = true
        if let nameNode {
            if let text = self.name(nameNode, key: "scenario") {
                name = text
                if Self.isBlank(text) {
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
                    suggestion: Suggestion(for: key, in: Self.scenarioKeys)
                ),
                at: location(of: keyNode)
            )
        }
        let tags = settings.tags.union(tagsNode.map { self.tags($0) } ?? [])
        let skip: String?
        switch skipNode.map({ skipSetting($0) }) {
        case .some(.some(.run)): skip = nil
        case .some(.some(.skip(let reason))): skip = reason
        case .some(.none): skip = nil
        case .none: skip = settings.skip
        }
        if let examplesNode {
            let outline = Outline(
                node: node,
                name: name,
                nameNode: nameNode,
                stepsNode: stepsNode,
                examplesNode: examplesNode,
                tags: tags,
                skip: skip,
                skipNode: skipNode
            )
            return rows(of: outline, valid: valid, in: settings, firstLines: &firstLines)
        }
        if valid, let nameNode { noteFirstLine(of: name, at: location(of: nameNode), in: &firstLines) }
        var bound = settings.bindings
        let steps = scenarioSteps(stepsNode, of: node, name: name, bound: &bound)
        guard valid else { return [] }
        return [
            scenario(
                name,
                tags: tags,
                skip: skip,
                at: location(of: node),
                lastLine: lastLine(of: node),
                steps: steps,
                in: settings
            )
        ]
    }

    /// The scenarios of an item of `scenarios`, as composed or as scanned in the plain shape.
    mutating func scenarios(_ item: ScenarioItem, in settings: FileSettings, firstLines: inout [String: Int])
        -> [Scenario]
    {
        switch item {
        case .composed(let node):
            return scenarios(node, in: settings, firstLines: &firstLines)
        case .plain(let plain) where !settings.bindings.names.isEmpty:
            // Names bound before its steps: each reads its arguments again (``step(_:bound:)``), from its node.
            return scenarios(plain.node, in: settings, firstLines: &firstLines)
        case .plain(let plain):
            return [scenario(plain, in: settings, firstLines: &firstLines)]
        }
    }

    /// A scenario in the plain shape, made from its scan: what reading its nodes makes (``PlainScenario/node``)
    /// — a name that is a plain scalar, no other key, each step the one built before from the same name and
    /// arguments, no name bound before it — without the nodes (DECISIONS 217).
    private mutating func scenario(_ plain: PlainScenario, in settings: FileSettings, firstLines: inout [String: Int])
        -> Scenario
    {
        noteFirstLine(
            of: plain.name,
            at: SourceLocation(file: file, line: plain.line + lineOffset, column: plain.nameColumn),
            in: &firstLines
        )
        var steps: [Step] = []
        steps.reserveCapacity(plain.steps.count)
        for line in plain.steps {
            let location = SourceLocation(file: file, line: line.line + lineOffset, column: line.column)
            steps.append(line.step.placed(at: location, timeout: nil))
        }
        return scenario(
            plain.name,
            tags: settings.tags,
            skip: settings.skip,
            at: SourceLocation(file: file, line: plain.line + lineOffset, column: plain.keyColumn),
            lastLine: (plain.steps.last?.line ?? plain.line) + lineOffset,
            steps: steps,
            in: settings
        )
    }

    /// Keeps the line of the first scenario named `name` (`true`); a later one is reported (`false`).
    @discardableResult
    mutating func noteFirstLine(of name: String, at location: SourceLocation, in firstLines: inout [String: Int])
        -> Bool
    {
        if let first = firstLines[name] {
            report(.duplicateScenario(name, firstLine: first), at: location)
            return false
        }
        firstLines[name] = location.line
        return true
    }

    /// A scenario of the file, its set-up and tear-down the file's.
    func scenario(
        _ name: String,
        tags: Set<String>,
        skip: String?,
        at location: SourceLocation,
        lastLine: Int,
        steps: [Step],
        in settings: FileSettings
    ) -> Scenario {
        var scenario = Scenario(
            name: name,
            tags: tags,
            location: location,
            feature: settings.feature,
            file: file,
            setUp: settings.setUp,
            steps: steps
        )
        scenario.tearDown = settings.tearDown
        scenario.skip = skip
        scenario.lastLine = lastLine
        return scenario
    }

    /// The steps of a scenario's `steps` node, every problem reported.
    mutating func scenarioSteps(_ stepsNode: YAMLNode?, of node: YAMLNode, name: String, bound: inout BoundNames)
        -> [Step]
    {
        var steps: [Step] = []
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
        return steps
    }

    // MARK: Small parts

    /// The last line a node is written on: its deepest last child's line, plus the line breaks of a
    /// quoted or block scalar that spans lines.
    func lastLine(of node: YAMLNode) -> Int {
        var node = node
        while true {
            switch node.content {
            case .scalar(let text, let isPlain):
                let line = location(of: node).line
                guard !isPlain else { return line }
                return line + text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            case .sequence(let items):
                guard let last = items.last else { return location(of: node).line }
                node = last
            case .mapping(let pairs):
                guard let last = pairs.last else { return location(of: node).line }
                node = last.value
            }
        }
    }

    mutating func name(_ node: YAMLNode, key: String) -> String? {
        guard let text = node.string else {
            report(.notAName(key: key), at: location(of: node))
            return nil
        }
        return text
    }

    /// Whether `text` is empty or only spaces and tabs (what `trimmingCharacters(in: .whitespaces)`
    /// would empty), without building a trimmed copy: read for every scenario's name.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// What a `skip:` says: `false` runs, `true` skips, any other text is the reason to skip. Nothing, a
    /// number and YAML 1.1's `yes`/`no`/`on`/`off` are errors (reported; `nil`): read as a reason they
    /// would skip a scenario the writer meant to run.
    mutating func skipSetting(_ node: YAMLNode) -> SkipSetting? {
        switch node.scalarValue {
        case .bool(false): return .run
        case .bool(true): return .skip("skip: true")
        case .string(let text) where !Self.isBlank(text):
            let isPlain = if case .scalar(_, isPlain: true) = node.content { true } else { false }
            if isPlain, Self.ambiguousSkipWords.contains(text.lowercased()) {
                report(.skipNotAReason(text), at: location(of: node))
                return nil
            }
            return .skip(text)
        case .int, .double:
            report(.skipNotAReason(node.string ?? ""), at: location(of: node))
            return nil
        default:
            report(.skipWithoutReason, at: location(of: node))
            return nil
        }
    }

    /// Plain words YAML 1.1 read as booleans: neither a reason nor `true`/`false` here.
    private static let ambiguousSkipWords: Set<String> = ["yes", "no", "on", "off", "y", "n"]

    private mutating func tags(_ node: YAMLNode) -> Set<String> {
        guard case .sequence(let items) = node.content else {
            report(.tagsNotNames, at: location(of: node))
            return []
        }
        var tags: Set<String> = []
        for item in items {
            // `@smoke` and `smoke` are one tag, as in a `--tag` expression.
            guard let text = item.string.map(TagExpression.bare), !text.isEmpty else {
                report(.tagsNotNames, at: location(of: item))
                continue
            }
            guard TagExpression.isSelectable(text) else {
                report(.unselectableTag(text), at: location(of: item))
                continue
            }
            tags.insert(text)
        }
        return tags
    }
}
