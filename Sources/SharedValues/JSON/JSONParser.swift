/// Why JSON text could not be parsed: what was expected and at which byte.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was expected, or what is wrong (`Expected ':' after an object key`).
    public var message: String
    /// The byte offset of the problem.
    public var offset: Int

    public var description: String { "\(message) at byte \(offset)." }
}

/// A small, allocation-light JSON parser: the response bodies of every request go through it, so it
/// avoids `JSONDecoder`'s per-value container machinery (see the micro-benchmarks).
struct JSONParser {
    /// The deepest nesting of arrays and objects; deeper is an error, never a deeper recursion.
    static let maxDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The members of the objects being read, innermost last: each object's are taken off when it ends, so
    /// one buffer serves every object of the document instead of an array grown per object.
    private var openMembers: [(String, JSONValue)] = []
    /// The elements of the arrays being read, innermost last, the same way.
    private var openElements: [JSONValue] = []

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("Unexpected text after the JSON value") }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, offset: index)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw error("Unexpected end of JSON") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("Unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("Unexpected end of JSON") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("Invalid literal")
        }
        index += count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw error("JSON nested deeper than \(Self.maxDepth) levels") }
    }

    /// An object's members are collected in order, then made into a dictionary of their size at once (no
    /// growing and rehashing member by member); a repeated key keeps its last value.
    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        let first = openMembers.count
        // Room for a few members at once: grown from nothing, the buffer was reallocated at 1, 2, 4, 8.
        if openMembers.capacity == 0 { openMembers.reserveCapacity(16) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("Expected a string key") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("Expected ':' after a key") }
            index += 1
            skipWhitespace()
            let member = (key, try value())
            openMembers.append(member)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                var members = [String: JSONValue](minimumCapacity: openMembers.count - first)
                for (key, value) in openMembers[first...] { members[key] = value }
                openMembers.removeSubrange(first...)
                return .object(members)
            default: throw error("Expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        let first = openElements.count
        if openElements.capacity == 0 { openElements.reserveCapacity(16) }
        while true {
            skipWhitespace()
            let element = try value()
            openElements.append(element)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                let elements = Array(openElements[first...])
                openElements.removeSubrange(first...)
                return .array(elements)
            default: throw error("Expected ',' or ']' in an array")
            }
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes; UTF-8 checked only when a byte is not ASCII.
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let text = isASCII ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
                else { throw invalidUTF8(from: start) }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("Unescaped control character in a string") }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scalars, as: UTF8.self) else { throw invalidUTF8(from: start) }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { throw error("Unexpected end of JSON") }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("Unpaired surrogate in a string") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("Invalid surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("Invalid Unicode escape") }
                    scalars.append(contentsOf: Array(String(scalar).utf8))
                default:
                    throw error("Invalid escape in a string")
                }
            default:
                if byte < 0x20 { throw error("Unescaped control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("Unterminated string")
    }

    /// An error at the first byte from `start` that is not UTF-8.
    private func invalidUTF8(from start: Int) -> JSONParseError {
        var position = start
        while position < index {
            let rest = UnsafeBufferPointer(rebasing: bytes[position..<index])
            var iterator = rest.makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { break }
            position += UTF8.width(scalar)
        }
        return JSONParseError(message: "Invalid UTF-8 in a string", offset: position)
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("Unexpected end of JSON") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("Invalid hex digit in a Unicode escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        let negative = current == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw error("Invalid number")
        }
        index += 1
        if first == UInt8(ascii: "0"), let next = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
            throw error("Leading zero in a number")
        }
        // The integer part's magnitude, read as it is scanned (`nil` once past what an Int holds).
        var magnitude: UInt64? = UInt64(first - UInt8(ascii: "0"))
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            if let value = magnitude {
                let (times10, over) = value.multipliedReportingOverflow(by: 10)
                let (sum, overAgain) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                magnitude = over || overAgain ? nil : sum
            }
            index += 1
        }
        // An integer read whole: without a String made of its digits, then parsed again.
        let next = current
        if next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E"), let magnitude {
            if !negative, magnitude <= UInt64(Int.max) { return .int(Int(magnitude)) }
            if negative, magnitude <= UInt64(Int.max) + 1 { return .int(Int(truncatingIfNeeded: 0 &- magnitude)) }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                throw error("Invalid number")
            }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                throw error("Invalid number")
            }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        guard let double = Double(text) else { throw error("Invalid number") }
        guard double.isFinite else {
            index = start
            throw error("Number '\(text)' is too large")
        }
        return .double(double)
    }

    // MARK: Elements one at a time (JSONElements)

    /// A parser inside an array, at the start of `bytes` (after its `[`, or after an element).
    fileprivate init(insideArray bytes: UnsafeBufferPointer<UInt8>) {
        self.init(bytes: bytes)
        depth = 1
    }

    /// What is next inside an array after an element (or, `first`, after its `[`): another element — its
    /// comma read — or the array's end — its `]` read. What `array()` reads there, the same errors.
    fileprivate mutating func moreElements(first: Bool) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "]"):
            index += 1
            return false
        case UInt8(ascii: ",") where !first:
            index += 1
            skipWhitespace()
            return true
        case _ where first:
            return true
        default:
            throw error("Expected ',' or ']' in an array")
        }
    }

    fileprivate mutating func element() throws(JSONParseError) -> JSONValue {
        try value()
    }

    /// Enters the array that is the next element (its `[` read, one level deeper, as `array()` enters it);
    /// `false` when the next element is not an array.
    fileprivate mutating func enterArray() throws(JSONParseError) -> Bool {
        guard current == UInt8(ascii: "[") else { return false }
        try enter()
        index += 1
        return true
    }

    /// Leaves an array read to its `]` (one level up again).
    fileprivate mutating func leaveArray() {
        depth -= 1
    }

    /// Whether nothing but whitespace is left.
    fileprivate mutating func isFinished() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }
}

/// The elements of a JSON array read one at a time where they are written: a worker line's fields after
/// its scenario's identity, read without an array of them made first, nor the text put together again.
/// The bytes start after the array's `[`, or (`afterElement`) right after one of its elements. Reads what
/// ``JSONValue/parse(_:)`` reads of the array, with the same limits; where the text is not JSON, the
/// elements end, and the array is not read to its end.
///
/// ```swift
/// var fields = JSONElements(bytes, afterElement: true)   // `,3,"steps",120]` after `["step","f","n"`
/// fields.int()          // 3
/// fields.string()       // "steps"
/// fields.int()          // 120
/// fields.isAtEnd()      // true: `]` was next, and nothing after it
/// ```
package struct JSONElements {
    private enum State {
        /// After the `[`: an element, or `]` (an empty array).
        case opened
        /// After an element: `,` and an element, or `]`.
        case afterElement
        /// After the `]`.
        case ended
        /// The text is not JSON here.
        case failed
    }

    private var parser: JSONParser
    private var state: State

    package init(_ bytes: UnsafeBufferPointer<UInt8>, afterElement: Bool = false) {
        parser = JSONParser(insideArray: bytes)
        state = afterElement ? .afterElement : .opened
    }

    /// The next element; `nil` at the array's end, and from where the text is not JSON on.
    package mutating func next() -> JSONValue? {
        guard state == .opened || state == .afterElement else { return nil }
        do {
            guard try parser.moreElements(first: state == .opened) else {
                state = .ended
                return nil
            }
            let element = try parser.element()
            state = .afterElement
            return element
        } catch {
            state = .failed
            return nil
        }
    }

    /// The next element, read by `body` when it is an array: its elements one at a time, as these are. `nil`
    /// when it is not an array, when `body` gives `nil`, or when an element is left after those `body` read
    /// — and the elements end there.
    package mutating func array<Result>(_ body: (inout JSONElements) -> Result?) -> Result? {
        guard state == .opened || state == .afterElement else { return nil }
        do {
            guard try parser.moreElements(first: state == .opened) else {
                state = .ended
                return nil
            }
            guard try parser.enterArray() else {
                state = .failed
                return nil
            }
        } catch {
            state = .failed
            return nil
        }
        var inner = JSONElements(parser: parser)
        let result = body(&inner)
        // Read to its `]`: an element left after those `body` read leaves it unended, and it is not read.
        _ = inner.next()
        guard let result, inner.state == .ended else {
            state = .failed
            return nil
        }
        parser = inner.parser
        parser.leaveArray()
        state = .afterElement
        return result
    }

    /// The elements of the array `parser` has just entered.
    private init(parser: JSONParser) {
        self.parser = parser
        state = .opened
    }

    /// The next element when it is an integer (``JSONValue/int(_:)``); `nil` otherwise.
    package mutating func int() -> Int? {
        guard case .int(let number)? = next() else { return nil }
        return number
    }

    /// The next element when it is a string; `nil` otherwise.
    package mutating func string() -> String? {
        guard case .string(let text)? = next() else { return nil }
        return text
    }

    /// Whether every element has been read: the array ends next (its `]` is read), nothing but whitespace
    /// after it, and all of it was JSON. An element left unread is not the end.
    package mutating func isAtEnd() -> Bool {
        if next() != nil { state = .failed }
        return state == .ended && parser.isFinished()
    }
}
