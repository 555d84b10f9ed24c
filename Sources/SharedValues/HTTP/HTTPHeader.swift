/// One header field; order and repetition are kept.
public struct HTTPHeader: Sendable, Hashable, Codable {
    /// The field's name, as written.
    public var name: String
    /// The field's value.
    public var value: String

    /// Makes a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether the field's name is `name`, compared as HTTP compares names: ASCII letters in either case.
    public func hasName(_ name: String) -> Bool {
        let lhs = self.name.utf8
        let rhs = name.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(a | 0x20))
        }
    }
}

extension [HTTPHeader] {
    /// The first value of a header, by case-insensitive name.
    public subscript(field name: String) -> String? {
        first { $0.hasName(name) }?.value
    }

    /// Sets a header, replacing any field of the same name.
    public mutating func set(_ name: String, to value: String) {
        removeAll { $0.hasName(name) }
        append(HTTPHeader(name: name, value: value))
    }
}
