import Diagnostics
import Foundation
import YAMLSource

/// The schema of a scenario file: its top-level keys, and each scenario's keys.
extension ScenarioFileLoader {
    static let fileKeys = ["feature", "tags", "set up", "scenarios"]
    static let scenarioKeys = ["scenario", "tags", "steps"]

    // MARK: File keys

    /// What the top-level keys other than `scenarios` give every scenario of the file.
    struct FileSettings {
        var feature: String
        var tags: Set<String> = []
        var setUp: [Step] = []
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

    mutating func scenario(_ node: YAMLNode, in settings: FileSettings, firstLines: inout [String: Int])
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
}
