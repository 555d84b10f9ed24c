public import ObjectManager
public import Scenarios

extension ArgumentValue {
    /// The value as JSON (mappings become objects).
    public var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .list(let items): .array(items.map(\.jsonValue))
        case .mapping(let entries):
            .object(Dictionary(entries.map { ($0.key, $0.value.jsonValue) }, uniquingKeysWith: { _, last in last }))
        }
    }

    /// The value as an attribute value (lists and mappings as JSON).
    public var attributeValue: AttributeValue {
        switch self {
        case .null: .null
        case .bool(let value): .boolean(value)
        case .int(let value): .integer(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .list, .mapping: .json(jsonValue)
        }
    }

    /// The entries of a mapping as attribute values (`attributes:`, `properties:`, `where:`).
    public var attributeValues: [String: AttributeValue] {
        guard case .mapping(let entries) = self else { return [:] }
        return Dictionary(entries.map { ($0.key, $0.value.attributeValue) }, uniquingKeysWith: { _, last in last })
    }
}

extension JSONValue {
    /// Whether `self` contains `expected`: objects match when every expected key matches (extra keys
    /// are fine), arrays element by element, numbers by value (`1` matches `1.0`).
    public func contains(_ expected: JSONValue) -> Bool {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            return wanted.allSatisfy { key, value in actual[key].map { $0.contains(value) } ?? false }
        case (.array(let actual), .array(let wanted)):
            return actual.count == wanted.count && zip(actual, wanted).allSatisfy { $0.contains($1) }
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Double(a) == b
        default:
            return self == expected
        }
    }
}

extension AttributeValue {
    /// Equality after converting `other` to this value's attribute type, so `"12345"` matches `12345`.
    func matches(_ other: AttributeValue, as type: AttributeType) -> Bool {
        let converted = (try? other.converted(to: type, dateFormats: [.iso8601])) ?? other
        return self == converted || self.stringValue == other.stringValue
    }
}
