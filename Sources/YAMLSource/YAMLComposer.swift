import CYaml

/// Composes YAML text into ``YAMLNode``s straight from libyaml's events, holding every document to
/// ``YAMLLimits``: nesting depth, and the nodes and bytes of text aliases expand to — counted across
/// every text one composer reads, so a file composed in parts has one budget.
///
/// It composes what Yams composes (anchors and aliases, tags — ignored, a scalar's plainness comes
/// from its style —, directives, complex keys) and reports as errors what Yams reports: libyaml's syntax
/// errors with their context, a key written twice (at its second occurrence), an unknown alias, a
/// second document.
///
/// ```swift
/// var composer = YAMLComposer()
/// let root = try composer.compose(try YAMLText(checking: "a: &x [1, 2]\nb: *x\n"))
/// root?["b"]?.items?.count   // 2
/// ```
package struct YAMLComposer {
    /// Nodes aliases may still expand to.
    package private(set) var aliasBudget = YAMLLimits.maxAliasNodes
    /// Bytes of scalar text aliases may still expand to.
    package private(set) var aliasByteBudget = YAMLLimits.maxAliasBytes

    package init() {
        _ = Self.raiseLibyamlNestingLimit
    }

    /// libyaml's own nesting limit (1,000 by default, a process-wide setting) is checked by its scanner,
    /// which reads up to 1,024 characters ahead of the events composed: `[` a thousand times on one line
    /// would hit it first, reported at the line's start in libyaml's words. Raised once so that
    /// ``YAMLLimits/maxDepth`` always decides, at the node that goes deeper; libyaml keeps its stacks on
    /// the heap and never reads more than that window ahead, so its depth stays bounded all the same.
    private static let raiseLibyamlNestingLimit: Void = {
        yaml_set_max_nest_level(Int32(4 * 1024 + YAMLLimits.maxDepth))
    }()

    /// The single document of a checked file, or `nil` when it holds none (empty, or only comments).
    package mutating func compose(_ text: YAMLText) throws(YAMLError) -> YAMLNode? {
        try compose(text.text[...])
    }

    /// The single document of part of a checked text, marks counted from the part's start.
    package mutating func compose(_ text: Substring) throws(YAMLError) -> YAMLNode? {
        var text = text
        var budget = (nodes: aliasBudget, bytes: aliasByteBudget)
        defer { (aliasBudget, aliasByteBudget) = budget }
        // `withUTF8` rethrows untyped: the typed error travels in a `Result`.
        return try text.withUTF8 { bytes in
            Result { () throws(YAMLError) -> YAMLNode? in
                var reader = EventReader(aliasBudget: budget.nodes, aliasByteBudget: budget.bytes)
                defer {
                    budget = (reader.aliasBudget, reader.aliasByteBudget)
                    reader.close()
                }
                yaml_parser_set_input_string(&reader.parser, bytes.baseAddress, bytes.count)
                try reader.expect(YAML_STREAM_START_EVENT)
                guard try reader.next() == YAML_DOCUMENT_START_EVENT else { return nil }  // the stream's end
                try reader.next()
                let root = try reader.node(depth: 1)
                try reader.expect(YAML_DOCUMENT_END_EVENT)
                if try reader.next() != YAML_STREAM_END_EVENT {
                    throw YAMLError(.severalDocuments, line: reader.line, column: reader.column)
                }
                return root
            }
        }.get()
    }

    /// libyaml's parser, its current event, and what composing has seen so far.
    private struct EventReader {
        var parser = yaml_parser_t()
        var event = yaml_event_t()
        /// Whether `event` holds an event to delete.
        var holdsEvent = false
        /// Anchored nodes by name, with the number of nodes and of scalar bytes each holds.
        var anchors: [String: (node: YAMLNode, count: Int, bytes: Int)] = [:]
        /// Nodes composed so far, every alias's expansion included.
        var composed = 0
        /// Bytes of scalar text composed so far, every alias's expansion included.
        var composedBytes = 0
        var aliasBudget: Int
        var aliasByteBudget: Int

        init(aliasBudget: Int, aliasByteBudget: Int) {
            self.aliasBudget = aliasBudget
            self.aliasByteBudget = aliasByteBudget
            yaml_parser_initialize(&parser)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        }

        mutating func close() {
            if holdsEvent { yaml_event_delete(&event) }
            yaml_parser_delete(&parser)
        }

        var line: Int { event.start_mark.line + 1 }
        var column: Int { event.start_mark.column + 1 }

        /// Moves to the next event; throws libyaml's error.
        @discardableResult
        mutating func next() throws(YAMLError) -> yaml_event_type_t {
            if holdsEvent { yaml_event_delete(&event) }
            holdsEvent = yaml_parser_parse(&parser, &event) == 1
            guard holdsEvent else { throw syntaxError() }
            return event.type
        }

        /// Moves to the next event, which must be `type` (libyaml guarantees the order of events).
        mutating func expect(_ type: yaml_event_type_t) throws(YAMLError) {
            guard try next() == type else {
                throw YAMLError(
                    .syntax(problem: "unexpected event", context: nil, contextLine: nil),
                    line: line,
                    column: column
                )
            }
        }

        func syntaxError() -> YAMLError {
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
            let context = parser.context.map { String(cString: $0) }
            let mark = parser.problem_mark
            if parser.error == YAML_READER_ERROR || parser.error == YAML_MEMORY_ERROR {
                return YAMLError(.syntax(problem: problem, context: nil, contextLine: nil))
            }
            return YAMLError(
                .syntax(
                    problem: problem,
                    context: context,
                    contextLine: context == nil ? nil : parser.context_mark.line + 1
                ),
                line: mark.line + 1,
                column: mark.column + 1
            )
        }

        /// The node starting at the current event, `depth` levels down; on return the current event is its
        /// last. Recursion never goes deeper than ``YAMLLimits/maxDepth``.
        mutating func node(depth: Int) throws(YAMLError) -> YAMLNode {
            let line = self.line
            let column = self.column
            let start = (nodes: composed, bytes: composedBytes)
            composed += 1
            let node: YAMLNode
            let anchor: UnsafeMutablePointer<yaml_char_t>?
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                anchor = scalar.anchor
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length),
                    as: UTF8.self
                )
                composedBytes += scalar.length
                let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE || scalar.style == YAML_ANY_SCALAR_STYLE
                node = YAMLNode(content: .scalar(text, isPlain: isPlain), line: line, column: column)
            case YAML_SEQUENCE_START_EVENT:
                guard depth <= YAMLLimits.maxDepth else { throw YAMLError(.tooDeep, line: line, column: column) }
                let name = Self.name(event.data.sequence_start.anchor)
                let flowStart =
                    event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE ? event.start_mark.index : nil
                var items: [YAMLNode] = []
                while try next() != YAML_SEQUENCE_END_EVENT {
                    items.append(try self.node(depth: depth + 1))
                }
                var sequence = YAMLNode(content: .sequence(items), line: line, column: column)
                sequence.flowSpan = flowStart.map { $0..<max($0, event.end_mark.index) }
                return register(sequence, as: name, since: start)
            case YAML_MAPPING_START_EVENT:
                guard depth <= YAMLLimits.maxDepth else { throw YAMLError(.tooDeep, line: line, column: column) }
                let name = Self.name(event.data.mapping_start.anchor)
                let flowStart =
                    event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE ? event.start_mark.index : nil
                var pairs: [(key: YAMLNode, value: YAMLNode)] = []
                var keys = KeySet()
                var duplicate: YAMLError?
                while try next() != YAML_MAPPING_END_EVENT {
                    let key = try self.node(depth: depth + 1)
                    if duplicate == nil, let text = key.string, !keys.insert(text, among: pairs) {
                        duplicate = YAMLError(.duplicateKey(text), line: key.line, column: key.column)
                    }
                    try next()
                    pairs.append((key, try self.node(depth: depth + 1)))
                }
                // Reported once the mapping is whole, as Yams does, so an error inside it comes first.
                if let duplicate { throw duplicate }
                var mapping = YAMLNode(content: .mapping(pairs), line: line, column: column)
                mapping.flowSpan = flowStart.map { $0..<max($0, event.end_mark.index) }
                return register(mapping, as: name, since: start)
            case YAML_ALIAS_EVENT:
                let name = Self.name(event.data.alias.anchor) ?? ""
                guard let (anchored, count, bytes) = anchors[name] else {
                    throw YAMLError(.undefinedAlias(name), line: line, column: column)
                }
                guard count <= aliasBudget else { throw YAMLError(.aliasesTooLarge, line: line, column: column) }
                guard bytes <= aliasByteBudget else {
                    throw YAMLError(.aliasesTooManyBytes, line: line, column: column)
                }
                aliasBudget -= count
                aliasByteBudget -= bytes
                composed += count - 1
                composedBytes += bytes
                return anchored
            default:
                throw YAMLError(
                    .syntax(problem: "unexpected event", context: nil, contextLine: nil),
                    line: line,
                    column: column
                )
            }
            return register(node, as: Self.name(anchor), since: start)
        }

        /// Remembers `node` under its anchor's name, with the nodes and bytes composed since `start`.
        private mutating func register(
            _ node: YAMLNode,
            as name: String?,
            since start: (nodes: Int, bytes: Int)
        ) -> YAMLNode {
            if let name { anchors[name] = (node, composed - start.nodes, composedBytes - start.bytes) }
            return node
        }

        private static func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            anchor.map { String(cString: $0) }
        }
    }

    /// The keys of a mapping seen so far: a look through the pairs while there are few, a set after.
    private struct KeySet {
        private var set: Set<String>?

        /// Whether `key` is new; `pairs` are the mapping's pairs so far.
        mutating func insert(_ key: String, among pairs: [(key: YAMLNode, value: YAMLNode)]) -> Bool {
            if set == nil {
                guard pairs.count >= 16 else { return !pairs.contains { $0.key.string == key } }
                set = Set(pairs.compactMap(\.key.string))
            }
            return set?.insert(key).inserted ?? true
        }
    }
}
