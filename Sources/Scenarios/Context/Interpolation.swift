import Foundation

/// `${name}` and `${name.key.path}` references inside a string argument.
enum Interpolation {
    enum Part: Equatable {
        case literal(String)
        case reference(name: String, keyPath: String)
    }

    enum Problem: Error, Equatable {
        case unterminated
        case emptyName
    }

    /// Splits `text` into literal text and references.
    static func parse(_ text: String) throws(Problem) -> [Part] {
        // Most texts refer to nothing: one scan of the bytes instead of a substring search.
        if !text.utf8.contains(UInt8(ascii: "$")) { return text.isEmpty ? [] : [.literal(text)] }
        var parts: [Part] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            if start.lowerBound > rest.startIndex {
                parts.append(.literal(String(rest[..<start.lowerBound])))
            }
            let afterOpen = rest[start.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else { throw .unterminated }
            let reference = afterOpen[..<close].trimmingCharacters(in: .whitespaces)
            let name = reference.prefix { $0 != "." }
            guard !name.isEmpty else { throw .emptyName }
            let keyPath = reference.dropFirst(name.count).drop { $0 == "." }
            parts.append(.reference(name: String(name), keyPath: String(keyPath)))
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return parts
    }

    /// The names a text refers to, in order.
    static func names(in text: String) throws(Problem) -> [String] {
        try parse(text).compactMap {
            if case .reference(let name, _) = $0 { return name }
            return nil
        }
    }

    /// The reference as the user wrote it, for messages: `${place.restaurantID}`.
    static func spelling(name: String, keyPath: String) -> String {
        keyPath.isEmpty ? "${\(name)}" : "${\(name).\(keyPath)}"
    }
}

extension String {
    /// Whether the text holds `${`, the start of a reference: one scan of the bytes (Foundation's
    /// substring search is many times slower, and every scalar of every step is asked).
    package var containsReference: Bool {
        let found = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            var offset = 0
            while offset < bytes.count, let dollar = memchr(base + offset, 0x24, bytes.count - offset) {
                let index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(dollar))
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") { return true }
                offset = index + 1
            }
            return false
        }
        if let found { return found }
        var afterDollar = false
        for byte in utf8 {
            if afterDollar, byte == UInt8(ascii: "{") { return true }
            afterDollar = byte == UInt8(ascii: "$")
        }
        return false
    }
}
