import YAMLSource

/// A step argument as a plain value tree, for steps that pass JSON-like values through.
///
/// Plain YAML scalars resolve as YAML's core schema does (`~` → null, `true`, `12`, `1.5`);
/// quoted scalars stay strings. Mappings keep their key order.
package enum ArgumentValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([ArgumentValue])
    case mapping([Entry])

    /// One key and value of a mapping.
    package struct Entry: Sendable, Hashable, Codable {
        package var key: String
        package var value: ArgumentValue

        package init(_ key: String, _ value: ArgumentValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of `key` in a mapping; `nil` for other values or a missing key.
    package subscript(key: String) -> ArgumentValue? {
        guard case .mapping(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// Resolves a plain (unquoted) YAML scalar, as every YAML file of the package is read.
    static func resolvingPlain(_ text: String) -> ArgumentValue {
        switch YAMLScalarValue(plain: text) {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .int(let int): return .int(int)
        case .double(let double): return .double(double)
        case .string(let string): return .string(string)
        }
    }
}
