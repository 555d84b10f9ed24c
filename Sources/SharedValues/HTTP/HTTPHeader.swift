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
        Self.same(self.name, name)
    }

    /// Why HTTP/1.1 cannot carry this field, or `nil` when it can: its name must be a token and its value
    /// hold no control character but a tab (RFC 9110 5.1, 5.5) — a line break in it would end the field.
    package var unsendableReason: String? {
        guard Self.isToken(name) else { return "the header name \(name.debugDescription) is not an HTTP token" }
        var value = value
        // Read in place (every field of every request is checked before it is sent).
        let sendable = value.withUTF8 { bytes in
            bytes.allSatisfy { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
        }
        return sendable ? nil : "the value of header \(name) has a line break or another control character"
    }

    /// Whether `name` is an HTTP token (RFC 9110 5.6.2), as a field's name must be.
    package static func isToken(_ name: String) -> Bool {
        var name = name
        return !name.isEmpty && name.withUTF8 { bytes in bytes.allSatisfy(isTokenByte) }
    }

    /// Whether `byte` may be part of a token: a letter, a digit, or one of ``!#$%&'*+-.^_`|~``.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"),
            UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether two texts are the same but for the case of ASCII letters (a field's name, or a value such
    /// as `Connection: close`), compared where they are: no lowercased copy made.
    package static func same(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in sameName(left, right) } }
    }

    /// Whether two names' bytes are the same but for the case of ASCII letters.
    private static func sameName(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        for index in 0..<left.count {
            let a = left[index]
            let b = right[index]
            guard a != b else { continue }
            let lower = a | 0x20
            guard lower == b | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
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
