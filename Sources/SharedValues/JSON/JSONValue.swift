public import Foundation

/// A parsed JSON document: the value type that mapping, fixtures and steps exchange.
///
/// ```swift
/// let json = try JSONValue(parsing: Data(#"{"errors": {"message": "Invalid object."}}"#.utf8))
/// json[keyPath: "errors.message"] // .string("Invalid object.")
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits an `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; its key order is not kept.
    case object([String: JSONValue])

    /// Parses JSON text; `true` stays a bool, `1` an int and `1.5` a double.
    public init(parsing data: Data) throws(JSONParseError) {
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> in
            Result { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(raw.bindMemory(to: UInt8.self)) }
        }
        self = try result.get()
    }

    /// Parses JSON text from bytes where they are, without a `Data` made of them first.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes)
    }

    /// The JSON text of this value; keys sorted unless `sortedKeys` is false. Non-finite doubles become null.
    public func encoded(sortedKeys: Bool = true) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        JSONWriter.write(self, sortedKeys: sortedKeys, into: &out)
        return Data(out)
    }

    /// This value's JSON text, keys sorted, at the end of `out`: what ``encoded(sortedKeys:)`` makes,
    /// without a buffer of its own, for a writer of many values into one.
    package func append(to out: inout [UInt8]) {
        JSONWriter.write(self, sortedKeys: true, into: &out)
    }

    /// `string` as a JSON string at the end of `out` (as ``append(to:)`` writes `.string(string)`).
    package static func appendString(_ string: String, to out: inout [UInt8]) {
        JSONWriter.writeString(string, into: &out)
    }

    /// The JSON text of this value for an HTML `<script type="application/json">` block: keys in no set
    /// order, and `<`, `>`, `&` in strings written as `\u003c`, `\u003e`, `\u0026`, so that no text can end
    /// the block or open a comment.
    package func htmlSafeText() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        JSONWriter.write(self, sortedKeys: false, htmlSafe: true, into: &out)
        return out
    }

    /// The JSON text of this value as a string, keys sorted.
    public var text: String {
        String(decoding: encoded(), as: UTF8.self)
    }

    /// The value at a dotted key path (`errors.message`); through an array of objects it collects the values, like KVC.
    ///
    /// Returns nil when a key is absent. An empty key path is the value itself.
    public subscript(keyPath keyPath: String) -> JSONValue? {
        if keyPath.isEmpty { return self }
        return value(
            at: keyPath.split(ascii: UInt8(ascii: "."), omittingEmptySubsequences: false).map(String.init)[...]
        )
    }

    private func value(at keys: ArraySlice<String>) -> JSONValue? {
        guard let key = keys.first else { return self }
        switch self {
        case .object(let members):
            return members[key]?.value(at: keys.dropFirst())
        case .array(let elements):
            return .array(elements.compactMap { $0.value(at: keys) })
        default:
            return nil
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        self == .null
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .int(let int): try container.encode(int)
        case .double(let double):
            if double.isFinite { try container.encode(double) } else { try container.encodeNil() }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { text }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
