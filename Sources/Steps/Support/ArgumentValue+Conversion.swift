public import ObjectManager
import Scenarios

extension ArgumentValue {
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

extension AttributeValue {
    /// Equality after converting `other` to this value's attribute type, so `"12345"` matches `12345`.
    func matches(_ other: AttributeValue, as type: AttributeType) -> Bool {
        let converted = (try? other.converted(to: type, dateFormats: [.iso8601])) ?? other
        return self == converted || self.stringValue == other.stringValue
    }
}
