import Diagnostics
import Foundation
import SharedValues
import YAMLSource

/// Building each step from its YAML node: the registry's definition, its arguments, and the `as:` binding
/// and `${name}` references checked against the names bound before it.
extension ScenarioFileLoader {
    // MARK: Steps

    mutating func steps(_ items: [YAMLNode], bound: inout BoundNames) -> [Step] {
        // Built to size: a loaded suite keeps every scenario's steps for the whole run.
        var steps: [Step] = []
        steps.reserveCapacity(items.count)
        for item in items {
            if let step = step(item, bound: &bound) { steps.append(step) }
        }
        return steps
    }

    private mutating func step(_ node: YAMLNode, bound: inout BoundNames) -> Step? {
        let (node, timeout) = splitTimeout(node)
        let nameNode: YAMLNode
        var argumentsNode: YAMLNode?
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
        // Its arguments left out of the text composed: written the same way as an earlier step, built then
        // (from this very name, so its definition is known without looking it up again).
        var leftOutHere: KnownLines.LeftOut?
        if let empty = argumentsNode, let place = empty.flowSpan, place.count == 2 {
            leftOutHere = leftOut.removeValue(forKey: place.lowerBound)
            if let leftOutHere, bound.names.isEmpty, WrittenStep.sameBytes(leftOutHere.name, name) {
                return leftOutHere.step.placed(at: nameLocation, timeout: timeout)
            }
        }
        guard let definition = registry.definition(named: name) else {
            report(
                .unknownStep(name, suggestion: Suggestion(for: name, in: registry.names)),
                at: nameLocation
            )
            // Bind its `as:` anyway so that later references do not pile up errors.
            if let value = argumentsNode?["as"]?.string { bound.insert(value, entity: nil) }
            return nil
        }

        if let leftOutHere, let empty = argumentsNode {
            // Names are bound before it: its arguments are read as written.
            guard let written = writtenArguments(leftOutHere, at: empty) else {
                report(.argument("These arguments could not be read again; please report it."), at: location(of: empty))
                return nil
            }
            argumentsNode = written
        }
        // Written the same way as an earlier step: built then, read no further.
        let span = definition.buildsOncePerFile && bound.names.isEmpty ? writtenSpan(name, argumentsNode) : nil
        if let span, let step = builtBySpan[span] {
            return step.placed(at: nameLocation, timeout: timeout)
        }
        let reportedBefore = diagnostics.count
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
        arguments.boundNames = bound.names

        var refersToNames = false
        arguments.forEachScalar { text, location in
            // Most texts refer to nothing (no `$`): nothing to parse.
            guard text.utf8.contains(UInt8(ascii: "$")) else { return }
            do throws(Interpolation.Problem) {
                for name in try Interpolation.parse(text) {
                    guard case .reference(let name, let keyPath) = name else { continue }
                    refersToNames = true
                    let reference = Interpolation.spelling(name: name, keyPath: keyPath)
                    guard bound.names.contains(name) else {
                        report(
                            .unboundName(
                                name,
                                reference: reference,
                                suggestion: Suggestion(for: name, in: bound.names, listing: "Bound so far")
                            ),
                            at: location
                        )
                        continue
                    }
                    if let problem = bound.problem(
                        with: name,
                        keyPath: keyPath,
                        reference: reference,
                        in: buildContext.vocabulary
                    ) {
                        report(.unknownKeyPath(problem), at: location)
                    }
                }
            } catch {
                switch error {
                case .unterminated: report(.unterminatedReference(text), at: location)
                case .emptyName: report(.emptyReference(text), at: location)
                }
            }
        }
        // The same arguments written the same way build the same step: built once for the file (a
        // suite of many scenarios repeats its steps), each use with its own location and timeout.
        let sharedKey =
            definition.buildsOncePerFile && binding == nil && !refersToNames
            ? WrittenStep(definition: definition.name, arguments: arguments, bound: bound.names) : nil
        if let sharedKey, let step = builtSteps[sharedKey] {
            return step.placed(at: nameLocation, timeout: timeout)
        }
        do throws(StepArgumentError) {
            // Without its action when the process only reports it: before it is shared, so that every use
            // shares the one described step.
            let built = try definition.build(arguments, buildContext)
            let step = keepsActions ? built : built.describedOnly
            if let sharedKey, builtSteps.count < Self.sharedStepsLimit { builtSteps[sharedKey] = step }
            // Its text is its meaning only when nothing about it was reported (a report names its place).
            if sharedKey != nil, let span, diagnostics.count == reportedBefore,
                builtBySpan.count < Self.sharedStepsLimit
            {
                // Its own copy of the text: the text composed may be a part's, with arguments left out.
                builtBySpan[WrittenSpan(name: Substring(String(span.name)), text: Substring(String(span.text)))] = step
            }
            if let binding { bound.insert(binding, entity: step.boundEntity) }
            return step.placed(at: nameLocation, timeout: timeout)
        } catch {
            if let binding { bound.insert(binding, entity: nil) }
            report(.argument(error.message), at: error.location)
            return nil
        }
    }

    /// The text of a step's arguments written as a flow collection, when that text means the same wherever
    /// it is written: the file is ASCII (``composedText``) and the text holds no alias (`*name`, whose
    /// anchor may be another one elsewhere). The names bound before it are checked by the caller (none).
    private func writtenSpan(_ name: String, _ node: YAMLNode?) -> WrittenSpan? {
        guard let composed = composedText, let span = node?.flowSpan else { return nil }
        let bytes = composed.utf8
        guard let start = bytes.index(composed.startIndex, offsetBy: span.lowerBound, limitedBy: bytes.endIndex),
            let end = bytes.index(start, offsetBy: span.count, limitedBy: bytes.endIndex)
        else { return nil }
        let written = composed[start..<end]
        // An alias (`*name`) may mean something else elsewhere.
        guard !written.contains(ascii: UInt8(ascii: "*")) else { return nil }
        return WrittenSpan(name: Substring(name), text: written)
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

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}

extension Step {
    /// The step where it is written, with its own timeout if it has one: a step built once stands for each
    /// use.
    consuming func placed(at location: SourceLocation, timeout: Duration?) -> Step {
        var step = self
        step.location = location
        if let timeout { step.timeout = timeout }
        return step
    }
}

extension StepArguments {
    /// The node as text, for messages.
    fileprivate var rendering: String {
        if case .scalar(let text, _) = content { return text }
        return kindDescription
    }
}
