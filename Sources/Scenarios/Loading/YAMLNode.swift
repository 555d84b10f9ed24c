import CYaml
import Yams

/// A YAML node as the scenario loader reads it: a scalar's text and whether it was plain, a sequence's
/// items or a mapping's pairs in file order, and where the node starts (1-based line and column).
///
/// Nodes come from ``compose(_:)``, which reads libyaml's events straight into this small value, or
/// from Yams for everything that reader declines (`init(_:)`): the two agree on every document the
/// first accepts, which a test checks on the malformed corpus and on every layout.
///
/// ```swift
/// let node = YAMLNode.compose("steps: [succeed]"[...])
/// node?.pairs?.first?.key.string   // "steps"
/// node?.pairs?.first?.value.line   // 1
/// ```
struct YAMLNode: Sendable {
    enum Content: Sendable {
        /// The text, and whether it was written plain (unquoted, not a block scalar).
        case scalar(String, isPlain: Bool)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    var content: Content
    var line: Int
    var column: Int

    /// The text of a scalar.
    var string: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The pairs of a mapping.
    var pairs: [(key: YAMLNode, value: YAMLNode)]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// A plain scalar that YAML reads as null: empty, `~` or `null`.
    var isNull: Bool {
        guard case .scalar(let text, isPlain: true) = content else { return false }
        return text.isEmpty || text == "~" || text == "null"
    }

    /// The value of the first pair whose key is the scalar `key`.
    subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.string == key }?.value
    }
}

// MARK: From Yams

extension YAMLNode {
    /// The node Yams composed (with its aliases already resolved to the nodes they name).
    init(_ node: Node) {
        let mark = node.mark
        line = mark?.line ?? 1
        column = mark?.column ?? 1
        switch node {
        case .scalar(let scalar):
            content = .scalar(scalar.string, isPlain: scalar.style == .plain || scalar.style == .any)
        case .sequence(let sequence):
            content = .sequence(sequence.map(YAMLNode.init))
        case .mapping(let mapping):
            content = .mapping(mapping.map { (key: YAMLNode($0.key), value: YAMLNode($0.value)) })
        case .alias:
            // Yams' parser replaces every alias by the node its anchor names; `.alias` is for emitting.
            content = .scalar("", isPlain: true)
        }
    }
}

// MARK: Straight from libyaml

extension YAMLNode {
    /// The single document of `text` composed from libyaml's events, or `nil` whenever the text is
    /// anything but one document of plain YAML: a syntax error, an empty stream, several documents,
    /// directives, anchors, aliases, explicit tags, keys that are not scalars or a key written twice in
    /// a mapping. The caller then composes with Yams, whose nodes and errors are the reference.
    ///
    /// This is the loader's hot path: composing through Yams costs an object per event, a tag object,
    /// a weak anchor reference and a dictionary of keys per node; here a node is one small value.
    static func compose(_ text: Substring) -> YAMLNode? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = EventReader()
            defer { reader.close() }
            yaml_parser_set_input_string(&reader.parser, bytes.baseAddress, bytes.count)
            guard reader.next() == YAML_STREAM_START_EVENT, reader.next() == YAML_DOCUMENT_START_EVENT,
                reader.event.data.document_start.version_directive == nil,
                reader.event.data.document_start.tag_directives.start == nil
            else { return nil }
            reader.next()
            guard let root = reader.node(), reader.next() == YAML_DOCUMENT_END_EVENT,
                reader.next() == YAML_STREAM_END_EVENT
            else { return nil }
            return root
        }
    }

    /// libyaml's parser and its current event.
    private struct EventReader {
        var parser = yaml_parser_t()
        var event = yaml_event_t()
        /// Whether `event` holds an event to delete.
        var holdsEvent = false

        init() {
            yaml_parser_initialize(&parser)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        }

        mutating func close() {
            if holdsEvent { yaml_event_delete(&event) }
            yaml_parser_delete(&parser)
        }

        /// Moves to the next event; `YAML_NO_EVENT` after an error.
        @discardableResult
        mutating func next() -> yaml_event_type_t {
            if holdsEvent { yaml_event_delete(&event) }
            holdsEvent = yaml_parser_parse(&parser, &event) == 1
            return holdsEvent ? event.type : YAML_NO_EVENT
        }

        /// The node starting at the current event; on return the current event is its last.
        mutating func node() -> YAMLNode? {
            let line = event.start_mark.line + 1
            let column = event.start_mark.column + 1
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                guard scalar.anchor == nil, scalar.tag == nil else { return nil }
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE || scalar.style == YAML_ANY_SCALAR_STYLE
                return YAMLNode(content: .scalar(text, isPlain: isPlain), line: line, column: column)
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                guard start.anchor == nil, start.tag == nil || start.implicit != 0 else { return nil }
                var items: [YAMLNode] = []
                while next() != YAML_SEQUENCE_END_EVENT {
                    guard let item = node() else { return nil }
                    items.append(item)
                }
                return YAMLNode(content: .sequence(items), line: line, column: column)
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                guard start.anchor == nil, start.tag == nil || start.implicit != 0 else { return nil }
                var pairs: [(key: YAMLNode, value: YAMLNode)] = []
                while next() != YAML_MAPPING_END_EVENT {
                    guard let key = node(), let keyText = key.string,
                        !pairs.contains(where: { $0.key.string == keyText })
                    else { return nil }
                    next()
                    guard let value = node() else { return nil }
                    pairs.append((key, value))
                }
                return YAMLNode(content: .mapping(pairs), line: line, column: column)
            default:  // an alias, or no event after an error
                return nil
            }
        }
    }
}
