import ObjectManager
import Yams

extension JSONValue {
    /// A YAML value as JSON: mappings become objects, lists arrays, plain scalars numbers, booleans and
    /// null by their resolved tag, everything else strings.
    init(yaml node: Node) {
        switch node {
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            for pair in mapping { members[pair.key.string ?? ""] = JSONValue(yaml: pair.value) }
            self = .object(members)
        case .sequence(let sequence):
            self = .array(sequence.map { JSONValue(yaml: $0) })
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: self = .null
            case .bool: self = node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case .int: self = node.int.map(JSONValue.int) ?? .string(scalar.string)
            case .float: self = node.float.map { $0.isFinite ? .double($0) : .null } ?? .string(scalar.string)
            default: self = .string(scalar.string)
            }
        case .alias:
            self = .null
        }
    }
}
