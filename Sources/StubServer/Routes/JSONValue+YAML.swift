package import SharedValues
package import YAMLSource

extension JSONValue {
    /// A YAML value as JSON: mappings become objects, lists arrays, plain scalars numbers, booleans and
    /// null as YAML's core schema reads them (a number too large to be finite is null), everything else
    /// strings.
    package init(yaml node: YAMLNode) {
        switch node.content {
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            for pair in mapping { members[pair.key.string ?? ""] = JSONValue(yaml: pair.value) }
            self = .object(members)
        case .sequence(let sequence):
            self = .array(sequence.map { JSONValue(yaml: $0) })
        case .scalar(let text, _):
            switch node.scalarValue {
            case .null?: self = .null
            case .bool(let bool)?: self = .bool(bool)
            case .int(let int)?: self = .int(int)
            case .double(let double)?: self = double.isFinite ? .double(double) : .null
            case .string?, nil: self = .string(text)
            }
        }
    }
}
