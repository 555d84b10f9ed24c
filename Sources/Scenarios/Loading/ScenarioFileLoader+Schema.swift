import Diagnostics
import Foundation
import YAMLSource

/// The schema of a scenario file: its top-level keys, and each scenario's keys.
extension ScenarioFileLoader {
    static let fileKeys = ["feature", "tags", "set up", "tear down", "skip", "scenarios"]
    static let scenarioKeys = ["scenario", "tags", "skip", "examples", "steps"]

    // MARK: File keys

    /// What the top-level keys other than `scenarios` give every scenario of the file.
    struct FileSettings {
        var feature: String
        var tags: Set<String> = []
        var setUp: [Step] = []
        /// The file's `tear down` steps, built once every key is read (they see the set-up's names).
        var tearDown: [Step] = []
        /// The `tear down` list, kept until every key is read (it may come before `set up`).
        var tearDownItems: [YAMLNode]?
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
            } else if !value.isNull {
                report(.notAList(key: "tear down"), at: location(of: value))
            }
        case "skip":
            file.skip = skipReason(value)
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

    /// Builds the file's `tear down` once every top-level key is read: its steps see the names the
    /// file's `set up` binds, wherever the two keys are written.
    mutating func finishFileKeys(_ file: inout FileSettings) {
        guard let items = file.tearDownItems else { return }
        var bound = file.bindings
        file.tearDown = steps(items, bound: &bound)
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
        let tags = settings.tags.union(tagsNode.map { self.tags($0) } ?? [])
        let skip = skipNode.flatMap { skipReason($0) } ?? settings.skip
        if let examplesNode {
            let outline = Outline(
                node: node,
                name: name,
                nameNode: nameNode,
                stepsNode: stepsNode,
                examplesNode: examplesNode,
                tags: tags,
                skip: skip
            )
            return rows(of: outline, valid: valid, in: settings, firstLines: &firstLines)
        }
        if valid, let nameNode {
            let line = location(of: nameNode).line
            if let first = firstLines[name] {
                report(.duplicateScenario(name, firstLine: first), at: location(of: nameNode))
            } else {
                firstLines[name] = line
            }
        }
        var bound = settings.bindings
        let steps = scenarioSteps(stepsNode, of: node, name: name, bound: &bound)
        guard valid else { return [] }
        var scenario = Scenario(
            name: name,
            tags: tags,
            location: location(of: node),
            feature: settings.feature,
            file: file,
            setUp: settings.setUp,
            steps: steps
        )
        scenario.tearDown = settings.tearDown
        scenario.skip = skip
        return [scenario]
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

    mutating func name(_ node: YAMLNode, key: String) -> String? {
        guard let text = node.string else {
            report(.notAName(key: key), at: location(of: node))
            return nil
        }
        return text
    }

    /// The reason of a `skip:`: any text but nothing.
    private mutating func skipReason(_ node: YAMLNode) -> String? {
        guard let text = node.string, !node.isNull, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            report(.skipWithoutReason, at: location(of: node))
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
            // `@smoke` and `smoke` are one tag, as in a `--tag` expression.
            guard let text = item.string.map(TagExpression.bare), !text.isEmpty else {
                report(.tagsNotNames, at: location(of: item))
                continue
            }
            tags.insert(text)
        }
        return tags
    }
}
