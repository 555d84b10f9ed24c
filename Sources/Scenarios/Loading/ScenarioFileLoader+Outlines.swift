import Diagnostics
import Foundation
import YAMLSource

/// Scenario outlines: a scenario with `examples:` is one scenario per row, its `${column}` placeholders
/// replaced by the row's values in the YAML nodes before any step is built, so that each step checks
/// the values where they land (a row's `status: abc` is the same error as writing `status: abc`, at the
/// row's cell).
///
/// ```yaml
/// - scenario: Posting a review the server answers with ${status}
///   examples:
///     - { to: /review, status: 201 }
///     - { to: /422, status: 422 }
///   steps:
///     - stub route: { class: Review, method: POST, to: "${to}" }
///     - expect response: { status: "${status}" }
/// ```
///
/// Inside an outline a `${name}` is a column when a column has that name, else a name bound with `as:`;
/// a column named like a bound name is an error, so that the two never hide each other. A placeholder
/// that is neither, a column no step uses, and a row without a column are errors at their place.
extension ScenarioFileLoader {
    /// A scenario item with `examples:`, its other keys already read.
    struct Outline {
        var node: YAMLNode
        var name: String
        var nameNode: YAMLNode?
        var stepsNode: YAMLNode?
        var examplesNode: YAMLNode
        var tags: Set<String>
        var skip: String?
        /// The outline's own `skip:` (not the file's), substituted per row.
        var skipNode: YAMLNode?
    }

    /// One row of `examples`: its node, its 1-based number and its values by column.
    private struct Row {
        var node: YAMLNode
        var number: Int
        var values: [String: YAMLNode]
    }

    /// The outline's columns: in the order they first appear, each with the key that first names it.
    private struct Columns {
        var names: [String] = []
        var keys: [String: YAMLNode] = [:]
    }

    /// One scenario per row of the outline; none when the outline itself is wrong (every problem
    /// reported, a problem of a shared step once).
    mutating func rows(of outline: Outline, valid: Bool, in settings: FileSettings, firstLines: inout [String: Int])
        -> [Scenario]
    {
        let start = diagnostics.count
        defer { dropRepeatedDiagnostics(since: start) }
        guard let (allRows, columns, complete) = exampleRows(outline) else { return [] }
        // Every problem of the outline is reported, then none of its rows is built.
        guard checkPlaceholders(outline, columns, settings), complete, valid else { return [] }
        // Read once for every row.
        let nameParts = (try? Interpolation.parse(outline.name)) ?? [.literal(outline.name)]
        let steps = outline.stepsNode.map { Self.template($0, columns: Set(columns.names)) }
        let skipParts = outline.skipNode.flatMap { $0.string }.flatMap { try? Interpolation.parse($0) }
            .flatMap { parts in parts.contains { if case .reference = $0 { true } else { false } } ? parts : nil }
        // Rows times steps is bounded per file: the rows past the budget are not built (reported).
        let rows = allRows.prefix(affordableRows(allRows, steps: steps, name: nameParts, skip: skipParts))
        let names = rows.map { Self.substitutedName(nameParts, $0.values) }
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        var numbered: [String: Int] = [:]
        var scenarios: [Scenario] = []
        scenarios.reserveCapacity(rows.count)
        let outlineLocation = location(of: outline.node)
        let lastLine = lastLine(of: outline.node)
        for (row, rowName) in zip(rows, names) {
            // Rows that give one name are told apart by their number among them: `Name [1]`, `Name [2]`.
            var name = rowName
            if counts[rowName, default: 0] > 1 {
                numbered[rowName, default: 0] += 1
                name += " [\(numbered[rowName, default: 0])]"
            }
            let rowLocation = location(of: row.node)
            guard noteFirstLine(of: name, at: rowLocation, in: &firstLines) else { continue }
            var bound = settings.bindings
            let steps = scenarioSteps(
                steps.map { instantiate($0, row.values) },
                of: outline.node,
                name: name,
                bound: &bound
            )
            var scenario = self.scenario(
                name,
                tags: outline.tags,
                skip: outline.skip,
                at: rowLocation,
                lastLine: lastLine,
                steps: steps,
                in: settings
            )
            if let skipParts {
                // `skip: "${column}"` reads the row's value as a `skip:` (so `false` runs the row); a
                // reason with placeholders inside is the row's reason.
                if skipParts.count == 1, case .reference(let column, _) = skipParts[0], let value = row.values[column] {
                    guard let setting = skipSetting(value) else { continue }
                    if case .skip(let reason) = setting { scenario.skip = reason } else { scenario.skip = nil }
                } else {
                    scenario.skip = Self.substitutedName(skipParts, row.values)
                }
            }
            scenario.example = ExampleRow(outline: outlineLocation, row: row.number)
            scenarios.append(scenario)
        }
        return scenarios
    }

    /// How many of `rows` the file's outline budget affords, spending it: each row costs the nodes of
    /// its steps written out (a `${column}` standing alone: the row's node, however large) and the
    /// bytes of text its placeholders are replaced with, in the steps, the name and `skip:`. The row
    /// where the budget runs out is reported, once per file; no row is built past it.
    private mutating func affordableRows(
        _ rows: [Row],
        steps: Template?,
        name: [Interpolation.Part],
        skip: [Interpolation.Part]?
    ) -> Int {
        for (index, row) in rows.enumerated() {
            guard !outlineBudgetSpent else { return index }
            var cost = (
                nodes: 0, bytes: Self.textBytes(name, row.values) + (skip.map { Self.textBytes($0, row.values) } ?? 0)
            )
            if let steps { Self.add(steps, row.values, to: &cost, limit: outlineBudget.nodes) }
            guard cost.nodes <= outlineBudget.nodes, cost.bytes <= outlineBudget.bytes else {
                outlineBudgetSpent = true
                report(.outlineTooLarge(nodes: cost.nodes > outlineBudget.nodes), at: location(of: row.node))
                return index
            }
            outlineBudget.nodes -= cost.nodes
            outlineBudget.bytes -= cost.bytes
        }
        return rows.count
    }

    /// Adds what `template` expands to with `values` to `cost`, counting nodes no further than just
    /// past `limit` (an aliased value of 100,000 nodes in every row is not walked in every row).
    private static func add(
        _ template: Template,
        _ values: [String: YAMLNode],
        to cost: inout (nodes: Int, bytes: Int),
        limit: Int
    ) {
        guard cost.nodes <= limit else { return }
        switch template {
        case .fixed(_, let nodes):
            cost.nodes += nodes
        case .whole(let column):
            if let value = values[column] { cost.nodes += nodeCount(value, upTo: limit - cost.nodes + 1) }
        case .text(let parts, _, _):
            cost.nodes += 1
            cost.bytes += textBytes(parts, values)
        case .sequence(let items, _):
            cost.nodes += 1
            for item in items { add(item, values, to: &cost, limit: limit) }
        case .mapping(let pairs, _):
            cost.nodes += 1
            for pair in pairs {
                add(pair.key, values, to: &cost, limit: limit)
                add(pair.value, values, to: &cost, limit: limit)
            }
        }
    }

    /// The bytes of `parts` with the row's values in place (a list or mapping counts its summary).
    private static func textBytes(_ parts: [Interpolation.Part], _ values: [String: YAMLNode]) -> Int {
        var bytes = 0
        for part in parts {
            switch part {
            case .literal(let text): bytes += text.utf8.count
            case .reference(let column, _): bytes += values[column]?.string?.utf8.count ?? 0
            }
        }
        return bytes
    }

    /// The nodes of `node` (itself included), counted up to `limit`.
    private static func nodeCount(_ node: YAMLNode, upTo limit: Int) -> Int {
        var count = 0
        var pending = [node]
        while let next = pending.popLast(), count < limit {
            count += 1
            switch next.content {
            case .scalar: break
            case .sequence(let items): pending.append(contentsOf: items)
            case .mapping(let pairs):
                for (key, value) in pairs {
                    pending.append(key)
                    pending.append(value)
                }
            }
        }
        return count
    }

    /// The rows and their columns, and whether they are complete (every row a mapping of valid names
    /// giving every column); `nil` when `examples` is not a list of rows at all. Problems are reported.
    private mutating func exampleRows(_ outline: Outline) -> (rows: [Row], columns: Columns, complete: Bool)? {
        guard case .sequence(let items) = outline.examplesNode.content else {
            report(.notAList(key: "examples"), at: location(of: outline.examplesNode))
            return nil
        }
        guard !items.isEmpty else {
            report(.emptyExamples(scenario: outline.name), at: location(of: outline.examplesNode))
            return nil
        }
        var columns = Columns()
        var rows: [Row] = []
        var valid = true
        for (index, item) in items.enumerated() {
            guard let pairs = item.pairs else {
                report(.exampleRowNotMapping, at: location(of: item))
                valid = false
                continue
            }
            var values: [String: YAMLNode] = [:]
            for (key, value) in pairs {
                let column = key.string ?? ""
                guard Self.isValidName(column) else {
                    report(.invalidColumnName(column), at: location(of: key))
                    valid = false
                    continue
                }
                if columns.keys[column] == nil {
                    columns.keys[column] = key
                    columns.names.append(column)
                }
                values[column] = value
            }
            rows.append(Row(node: item, number: index + 1, values: values))
        }
        for row in rows {
            for column in columns.names where row.values[column] == nil {
                report(
                    .rowMissingColumn(row: row.number, column: column, columns: columns.names),
                    at: location(of: row.node)
                )
                valid = false
            }
        }
        return (rows, columns, valid)
    }

    /// Checks every `${…}` of the outline's name and steps against its columns and bound names, and that
    /// every column is used by a step; `false` (reported) when something is wrong.
    private mutating func checkPlaceholders(_ outline: Outline, _ columns: Columns, _ settings: FileSettings) -> Bool {
        var bound = settings.bindings.names
        for item in outline.stepsNode?.items ?? [] {
            for (_, arguments) in item.pairs ?? [] {
                if let name = arguments["as"]?.string { bound.insert(name) }
            }
        }
        var valid = true
        for column in columns.names where bound.contains(column) {
            report(.columnShadowsBinding(column), at: location(of: columns.keys[column]))
            valid = false
        }
        let known = columns.names + bound.sorted()
        var used: Set<String> = []
        forEachScalar(in: outline.stepsNode) { loader, text, node in
            guard let parts = try? Interpolation.parse(text) else { return }  // the step reports it
            for case .reference(let name, let keyPath) in parts {
                let reference = Interpolation.spelling(name: name, keyPath: keyPath)
                if columns.keys[name] != nil {
                    used.insert(name)
                    if !keyPath.isEmpty {
                        let problem = LoadError.columnWithKeyPath(column: name, reference: reference)
                        loader.report(problem, at: loader.location(of: node))
                        valid = false
                    }
                } else if !bound.contains(name) {
                    let suggestion = Suggestions.didYouMeanOrKnown(name, in: known, label: "Columns and bound names")
                    loader.report(
                        .unknownPlaceholder(reference: reference, suggestion: suggestion),
                        at: loader.location(of: node)
                    )
                    valid = false
                }
            }
        }
        if let parts = try? Interpolation.parse(outline.name) {
            for case .reference(let name, let keyPath) in parts where columns.keys[name] == nil || !keyPath.isEmpty {
                let suggestion = Suggestions.didYouMeanOrKnown(name, in: columns.names, label: "Columns")
                report(
                    .placeholderNotInName(
                        reference: Interpolation.spelling(name: name, keyPath: keyPath),
                        suggestion: suggestion
                    ),
                    at: location(of: outline.nameNode ?? outline.node)
                )
                valid = false
            }
        }
        if let skip = outline.skipNode?.string, let parts = try? Interpolation.parse(skip) {
            for case .reference(let name, let keyPath) in parts {
                guard columns.keys[name] == nil || !keyPath.isEmpty else {
                    used.insert(name)
                    continue
                }
                let suggestion = Suggestions.didYouMeanOrKnown(name, in: columns.names, label: "Columns")
                report(
                    .placeholderNotInSkip(
                        reference: Interpolation.spelling(name: name, keyPath: keyPath),
                        suggestion: suggestion
                    ),
                    at: location(of: outline.skipNode ?? outline.node)
                )
                valid = false
            }
        }
        for column in columns.names where !used.contains(column) && !bound.contains(column) {
            report(.unusedColumn(column, scenario: outline.name), at: location(of: columns.keys[column]))
            valid = false
        }
        return valid
    }

    /// Calls `body` with every scalar (keys included) under `node` that may hold a `${`.
    private mutating func forEachScalar(
        in node: YAMLNode?,
        _ body: (inout ScenarioFileLoader, String, YAMLNode) -> Void
    ) {
        guard let node else { return }
        switch node.content {
        case .scalar(let text, _):
            if text.utf8.contains(UInt8(ascii: "$")) { body(&self, text, node) }
        case .sequence(let items):
            for item in items { forEachScalar(in: item, body) }
        case .mapping(let pairs):
            for (key, value) in pairs {
                forEachScalar(in: key, body)
                forEachScalar(in: value, body)
            }
        }
    }

    /// The outline's name with the row's values (a row's list or mapping is named by its kind).
    private static func substitutedName(_ parts: [Interpolation.Part], _ values: [String: YAMLNode]) -> String {
        parts.map { part in
            switch part {
            case .literal(let text): return text
            case .reference(let column, _):
                guard let value = values[column] else { return "" }
                return value.isNull ? "" : value.string ?? value.summary
            }
        }.joined()
    }

    /// An outline's steps read once for all its rows: subtrees without a column's placeholder kept as
    /// they are (shared by every row, never copied), scalars with one parsed once.
    private indirect enum Template {
        /// A subtree without placeholders, and its count of nodes.
        case fixed(YAMLNode, nodes: Int)
        /// A scalar that is exactly `${column}`: the row's node itself.
        case whole(column: String)
        /// A scalar with placeholders inside its text.
        case text([Interpolation.Part], original: YAMLNode, isPlain: Bool)
        case sequence([Template], original: YAMLNode)
        case mapping([(key: Template, value: Template)], original: YAMLNode)

        var isFixed: Bool {
            if case .fixed = self { return true }
            return false
        }

        /// The nodes of a fixed subtree (0 for any other).
        var fixedNodes: Int {
            if case .fixed(_, let nodes) = self { return nodes }
            return 0
        }
    }

    private static func template(_ node: YAMLNode, columns: Set<String>) -> Template {
        switch node.content {
        case .scalar(let text, let isPlain):
            guard text.utf8.contains(UInt8(ascii: "$")), let parts = try? Interpolation.parse(text),
                parts.contains(where: { part in
                    if case .reference(let name, _) = part { return columns.contains(name) }
                    return false
                })
            else { return .fixed(node, nodes: 1) }
            if parts.count == 1, case .reference(let name, let keyPath) = parts[0], keyPath.isEmpty {
                return .whole(column: name)
            }
            return .text(parts, original: node, isPlain: isPlain)
        case .sequence(let items):
            let templates = items.map { template($0, columns: columns) }
            return templates.allSatisfy(\.isFixed)
                ? .fixed(node, nodes: 1 + templates.reduce(0) { $0 + $1.fixedNodes })
                : .sequence(templates, original: node)
        case .mapping(let pairs):
            let templates = pairs.map {
                (key: template($0.key, columns: columns), value: template($0.value, columns: columns))
            }
            return templates.allSatisfy { $0.key.isFixed && $0.value.isFixed }
                ? .fixed(node, nodes: 1 + templates.reduce(0) { $0 + $1.key.fixedNodes + $1.value.fixedNodes })
                : .mapping(templates, original: node)
        }
    }

    /// The template with the row's values in place of its columns' placeholders: a scalar that is
    /// exactly `${column}` becomes the row's node (its type and its place), placeholders inside text
    /// become the value's text; anything else is left as written.
    private mutating func instantiate(_ template: Template, _ values: [String: YAMLNode]) -> YAMLNode {
        switch template {
        case .fixed(let node, _):
            return node
        case .whole(let column):
            return values[column] ?? YAMLNode(content: .scalar("", isPlain: true), line: 1, column: 1)
        case .text(let parts, let node, let isPlain):
            var result = ""
            for part in parts {
                switch part {
                case .literal(let literal):
                    result += literal
                case .reference(let name, let keyPath):
                    guard keyPath.isEmpty, let value = values[name] else {
                        result += Interpolation.spelling(name: name, keyPath: keyPath)
                        continue
                    }
                    if value.isNull { continue }
                    guard let scalar = value.string else {
                        report(.columnNotScalar(column: name, text: node.string ?? ""), at: location(of: node))
                        continue
                    }
                    result += scalar
                }
            }
            return YAMLNode(content: .scalar(result, isPlain: isPlain), line: node.line, column: node.column)
        case .sequence(let items, let node):
            return YAMLNode(
                content: .sequence(items.map { instantiate($0, values) }),
                line: node.line,
                column: node.column
            )
        case .mapping(let pairs, let node):
            return YAMLNode(
                content: .mapping(
                    pairs.map { (key: instantiate($0.key, values), value: instantiate($0.value, values)) }
                ),
                line: node.line,
                column: node.column
            )
        }
    }
}
