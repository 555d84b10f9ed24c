/// A YAML node as the package reads it: a scalar's text and whether it was plain, a list's items or a
/// mapping's pairs in file order, and where the node starts (1-based line and column).
///
/// Nodes come from ``YAMLComposer``, which reads libyaml's events straight into this small value with
/// every limit of ``YAMLLimits`` checked; a test checks it composes every document as Yams does.
///
/// ```swift
/// var composer = YAMLComposer()
/// let node = try composer.compose("steps: [succeed]"[...])
/// node?.pairs?.first?.key.string   // "steps"
/// node?.pairs?.first?.value.line   // 1
/// ```
package struct YAMLNode: Sendable {
    package enum Content: Sendable {
        /// The text, and whether it was written plain (unquoted, not a block scalar).
        case scalar(String, isPlain: Bool)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    package var content: Content
    package var line: Int
    package var column: Int
    /// For a flow collection (`{…}`, `[…]`), where it is written: from its opening bracket to past its
    /// closing one, in characters from the start of the composed text (libyaml's mark index, which counts
    /// a line break of CR LF as two). `nil` for any other node.
    package var flowSpan: Range<Int>?

    package init(content: Content, line: Int, column: Int) {
        self.content = content
        self.line = line
        self.column = column
    }

    /// The text of a scalar.
    package var string: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The items of a list.
    package var items: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The pairs of a mapping.
    package var pairs: [(key: YAMLNode, value: YAMLNode)]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// A plain scalar that YAML's core schema reads as null: empty, `~` or `null`.
    package var isNull: Bool {
        guard case .scalar(let text, isPlain: true) = content else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// The value of the first pair whose key is the scalar `key`.
    package subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.string == key }?.value
    }

    /// The node and every node under it `lines` lines further down, for a node composed apart from the
    /// text it stands in; without flow spans (they count from the start of that other text).
    package func movedDown(by lines: Int) -> YAMLNode {
        var moved = self
        moved.line += lines
        moved.flowSpan = nil
        switch content {
        case .scalar: break
        case .sequence(let items): moved.content = .sequence(items.map { $0.movedDown(by: lines) })
        case .mapping(let pairs):
            moved.content = .mapping(
                pairs.map { (key: $0.key.movedDown(by: lines), value: $0.value.movedDown(by: lines)) }
            )
        }
        return moved
    }

    /// How a node is named in messages: a scalar by its text in quotes, null as `nothing`, others by kind.
    package var summary: String {
        switch content {
        case .scalar(let text, _): return isNull ? "nothing" : "'\(text)'"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}

/// What a scalar means under YAML's core schema.
package enum YAMLScalarValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// Resolves a plain scalar's text (`~` → null, `true`, `12`, `1.5`); anything else is a string.
    package init(plain text: String) {
        switch text {
        case "", "~", "null", "Null", "NULL": self = .null
        case "true", "True", "TRUE": self = .bool(true)
        case "false", "False", "FALSE": self = .bool(false)
        default:
            if let int = Int(text) {
                self = .int(int)
            } else if text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true,
                let double = Double(text)
            {
                self = .double(double)
            } else {
                self = .string(text)
            }
        }
    }
}

extension YAMLNode {
    /// A scalar's meaning: plain scalars resolved by the core schema, quoted ones strings; `nil` for
    /// lists and mappings.
    package var scalarValue: YAMLScalarValue? {
        guard case .scalar(let text, let isPlain) = content else { return nil }
        return isPlain ? YAMLScalarValue(plain: text) : .string(text)
    }
}
