public import Foundation

extension ArgumentValue {
    /// The value as a Foundation JSON object (`NSNull`, `Bool`, `Int`, `Double`, `String`, arrays, dictionaries),
    /// ready for `JSONSerialization`. Mapping key order is lost, as JSON objects have none.
    public var jsonObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .list(let items): return items.map(\.jsonObject)
        case .mapping(let entries):
            var dictionary: [String: Any] = [:]
            for entry in entries { dictionary[entry.key] = entry.value.jsonObject }
            return dictionary
        }
    }

    /// The value as JSON text, keys in the order written.
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return value.isFinite ? String(value) : "null"
        case .string(let value): return Self.quoted(value)
        case .list(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .mapping(let entries):
            return "{" + entries.map { Self.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
