import Foundation
import Yams

/// Writes a YAML node as JSON text, keeping the order of mapping keys.
enum JSONText {
    /// JSON for any YAML value: mappings become objects, lists arrays, plain scalars numbers, booleans and
    /// null by their resolved tag, everything else strings.
    static func data(for node: Node) -> Data {
        var out = ""
        write(node, to: &out)
        return Data(out.utf8)
    }

    /// A JSON string literal, quotes included.
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func write(_ node: Node, to out: inout String) {
        switch node {
        case .mapping(let mapping):
            out += "{"
            for (index, pair) in mapping.enumerated() {
                if index > 0 { out += ", " }
                out += quoted(pair.key.string ?? "") + ": "
                write(pair.value, to: &out)
            }
            out += "}"
        case .sequence(let sequence):
            out += "["
            for (index, element) in sequence.enumerated() {
                if index > 0 { out += ", " }
                write(element, to: &out)
            }
            out += "]"
        case .scalar(let scalar):
            out += literal(for: scalar, node: node)
        case .alias:
            out += "null"
        }
    }

    private static func literal(for scalar: Node.Scalar, node: Node) -> String {
        switch Tag.Name(rawValue: node.tag.rawValue) {
        case .null:
            return "null"
        case .bool:
            return node.bool.map { $0 ? "true" : "false" } ?? quoted(scalar.string)
        case .int:
            return node.int.map(String.init) ?? quoted(scalar.string)
        case .float:
            guard let value = node.float, value.isFinite else { return "null" }
            return "\(value)"
        default:
            return quoted(scalar.string)
        }
    }
}
