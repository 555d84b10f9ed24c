public import Foundation

/// The value of one entity attribute.
public enum AttributeValue: Sendable, Hashable {
    /// No value (SQL `NULL`, JSON `null`).
    case null
    /// A whole number.
    case integer(Int)
    /// A floating-point number.
    case double(Double)
    /// Text.
    case string(String)
    /// A Boolean.
    case boolean(Bool)
    /// A point in time.
    case date(Date)
    /// A JSON value (an array or an object) of an attribute of type ``AttributeType/json``.
    case json(JSONValue)

    /// The attribute value of a JSON value as it stands: numbers, strings and bools keep their kind, arrays and objects become `.json`.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let bool): self = .boolean(bool)
        case .int(let int): self = .integer(int)
        case .double(let double): self = .double(double)
        case .string(let string): self = .string(string)
        case .array, .object: self = .json(json)
        }
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        self == .null
    }

    /// Text for URL interpolation and `${name.attr}`: integers without `.0`, dates ISO 8601, nil for null.
    public var stringValue: String? {
        switch self {
        case .null: nil
        case .integer(let int): String(int)
        case .double(let double): Self.text(of: double)
        case .string(let string): string
        case .boolean(let bool): bool ? "true" : "false"
        case .date(let date): DateFormat.iso8601String(from: date)
        case .json(let json): json.stringValue ?? json.text
        }
    }

    /// The JSON form of this value (dates as ISO 8601 strings).
    public var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .integer(let int): .int(int)
        case .double(let double): .double(double)
        case .string(let string): .string(string)
        case .boolean(let bool): .bool(bool)
        case .date(let date): .string(DateFormat.iso8601String(from: date))
        case .json(let json): json
        }
    }

    /// This value converted to `type`: numeric strings ↔ numbers, `"true"`/`1` → bool, strings → dates by `dateFormats`, arrays → json.
    ///
    /// `.null` converts to `.null` for every type.
    public func converted(to type: AttributeType, dateFormats: [DateFormat] = [.iso8601]) throws(ConversionError)
        -> AttributeValue
    {
        if case .json(let json) = self, !json.isComposite {
            return try AttributeValue(json).converted(to: type, dateFormats: dateFormats)
        }
        if self == .null { return .null }
        // Made only when a conversion fails: the quoted value is a string built from the value.
        var failure: ConversionError { .cannotConvert(value: quoted, to: type) }
        switch type {
        case .integer:
            switch self {
            case .integer: return self
            case .double(let double):
                guard let int = Self.exactInt(double) else { throw failure }
                return .integer(int)
            case .string(let string):
                let trimmed = string.trimmingCharacters(in: .whitespaces)
                if let int = Int(trimmed) { return .integer(int) }
                if let double = Double(trimmed), let int = Self.exactInt(double) { return .integer(int) }
                throw failure
            case .boolean(let bool): return .integer(bool ? 1 : 0)
            case .date(let date):
                guard let int = Self.exactInt(date.timeIntervalSince1970.rounded(.down)) else { throw failure }
                return .integer(int)
            case .null, .json: throw failure
            }
        case .double:
            switch self {
            case .integer(let int): return .double(Double(int))
            case .double: return self
            case .string(let string):
                guard let double = Double(string.trimmingCharacters(in: .whitespaces)) else { throw failure }
                return .double(double)
            case .boolean(let bool): return .double(bool ? 1 : 0)
            case .date(let date): return .double(date.timeIntervalSince1970)
            case .null, .json: throw failure
            }
        case .string:
            guard let string = stringValue else { throw failure }
            return .string(string)
        case .boolean:
            switch self {
            case .boolean: return self
            case .integer(let int): return .boolean(int != 0)
            case .double(let double): return .boolean(double != 0)
            case .string(let string):
                switch string.trimmingCharacters(in: .whitespaces).lowercased() {
                case "true", "yes", "1": return .boolean(true)
                case "false", "no", "0": return .boolean(false)
                default: throw failure
                }
            case .null, .date, .json: throw failure
            }
        case .date:
            switch self {
            case .date: return self
            case .integer(let int): return .date(Date(timeIntervalSince1970: Double(int)))
            case .double(let double): return .date(Date(timeIntervalSince1970: double))
            case .string(let string):
                for format in dateFormats {
                    if let date = format.date(from: string) { return .date(date) }
                }
                throw .unparsableDate(string, formats: dateFormats)
            case .null, .boolean, .json: throw failure
            }
        case .json:
            if case .json = self { return self }
            return .json(jsonValue)
        }
    }

    /// This value as the user wrote it, strings in quotes: for messages.
    public var quoted: String {
        switch self {
        case .null: "null"
        case .string(let string): "'\(string)'"
        case .json(let json): json.text
        default: stringValue ?? "null"
        }
    }

    private static func exactInt(_ double: Double) -> Int? {
        guard double.isFinite, double.rounded(.towardZero) == double, abs(double) < 9.2e18 else { return nil }
        return Int(double)
    }

    private static func text(of double: Double) -> String {
        if let int = exactInt(double), abs(double) < 1e15 { return String(int) }
        return String(double)
    }
}

extension JSONValue {
    /// Whether this is an array or an object.
    var isComposite: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// This JSON value converted to an attribute type (see ``AttributeValue/converted(to:dateFormats:)``).
    public func converted(to type: AttributeType, dateFormats: [DateFormat] = [.iso8601]) throws(ConversionError)
        -> AttributeValue
    {
        try AttributeValue(self).converted(to: type, dateFormats: dateFormats)
    }
}

extension AttributeValue: CustomStringConvertible {
    public var description: String { quoted }
}

extension AttributeValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}
