import Foundation
import Synchronization

/// A path with `:name` and `:relationship.attribute` placeholders, such as
/// `/restaurants/:restaurantID/reviews`.
///
/// ```swift
/// let pattern = PathPattern("/restaurants/:restaurantID/reviews")
/// try pattern.interpolate { $0 == "restaurantID" ? "12345" : nil } // "/restaurants/12345/reviews"
/// ```
public struct PathPattern: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    enum Component: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// The pattern as written.
    public let rawValue: String
    let components: [Component]
    /// The components grouped by path segment (literals split at `/`), for segment matching: made with the
    /// components, not at each match (the stub server matches every route's pattern per request).
    let segmentComponents: [[Component]]

    /// Makes a pattern from its text (`/restaurants/:restaurantID/reviews`); a string literal makes one too.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        (components, segmentComponents) = Self.parts(of: rawValue)
    }

    /// The components of `text`, parsed once per text in the process: a scenario re-points a route or
    /// sends to a path with the same few texts again and again (DECISIONS 172). Kept by the text's bytes, so
    /// that a canonically equal text with other bytes is parsed for itself; at most ``mostKept`` texts are
    /// kept (past that, patterns are parsed each time, as before), so hostile input cannot grow it.
    static func parts(of text: String) -> (components: [Component], segments: [[Component]]) {
        let key = Bytes(text: text)
        if let known = made.withLock({ $0[key] }) { return known }
        let components = parse(text)
        let parts = (components, segments(of: components))
        made.withLock { made in
            if made.count < mostKept { made[key] = parts }
        }
        return parts
    }

    /// How many pattern texts the process keeps parsed.
    package static let mostKept = 4096

    private static let made = Mutex<[Bytes: (components: [Component], segments: [[Component]])]>([:])

    /// A text compared and hashed by its UTF-8 bytes (String compares canonical equivalents equal).
    private struct Bytes: Hashable, Sendable {
        let text: String

        static func == (lhs: Bytes, rhs: Bytes) -> Bool {
            lhs.text.utf8.elementsEqual(rhs.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Patterns are equal when their texts are: the parts are made from the text.
    public static func == (lhs: PathPattern, rhs: PathPattern) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    /// Hashes the text, as ``==`` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    /// The placeholder names, in order (`["restaurantID"]`).
    public var parameterNames: [String] {
        components.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// Fills every placeholder from `lookup`, percent-encoding each value as a path segment; fails with
    /// the first placeholder `lookup` has no value for (the object manager's `interpolate` names it).
    package func filled(_ lookup: (String) -> String?) -> Result<String, MissingPlaceholder> {
        var path = ""
        for component in components {
            switch component {
            case .literal(let text):
                path += text
            case .parameter(let name):
                guard let value = lookup(name) else { return .failure(MissingPlaceholder(name: name)) }
                path += Self.percentEncodeSegment(value)
            }
        }
        return .success(path)
    }

    /// A placeholder with no value.
    package struct MissingPlaceholder: Error {
        package var name: String
    }

    /// Matches a concrete path (without query) and returns the placeholder values (percent-decoded), or `nil`.
    public func match(_ path: String) -> [String: String]? {
        Self.match(components, in: Substring(path), decoding: true)
    }

    /// Matches already-decoded path segments (`["articles", "news", "7"]`) segment by segment, so a
    /// value may contain any character; returns the placeholder values, or `nil`.
    public func match(segments: [String]) -> [String: String]? {
        guard segments.count == segmentComponents.count else { return nil }
        var parameters: [String: String] = [:]
        for (pattern, segment) in zip(segmentComponents, segments) {
            guard let bound = Self.match(pattern, in: Substring(segment), decoding: false) else { return nil }
            parameters.merge(bound) { _, new in new }
        }
        return parameters
    }

    /// `components` grouped by path segment (literals split at `/`).
    private static func segments(of components: [Component]) -> [[Component]] {
        var segments: [[Component]] = [[]]
        for component in components {
            switch component {
            case .parameter:
                segments[segments.count - 1].append(component)
            case .literal(let text):
                let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                for (index, part) in parts.enumerated() {
                    if index > 0 { segments.append([]) }
                    if !part.isEmpty { segments[segments.count - 1].append(.literal(String(part))) }
                }
            }
        }
        return segments.filter { !$0.isEmpty }
    }

    private static func match(_ components: [Component], in text: Substring, decoding: Bool) -> [String: String]? {
        var parameters: [String: String] = [:]
        var rest = text
        for (index, component) in components.enumerated() {
            switch component {
            case .literal(let literal):
                guard let after = Self.end(of: literal, startingAt: rest) else { return nil }
                rest = rest[after...]
            case .parameter(let name):
                // A parameter runs to the next literal's first character (or to the end of the segment).
                let stop: Character? =
                    if index + 1 < components.count, case .literal(let next) = components[index + 1] {
                        next.first
                    } else {
                        nil
                    }
                let end = rest.firstIndex { (decoding && $0 == "/") || $0 == stop } ?? rest.endIndex
                let value = String(rest[rest.startIndex..<end])
                guard !value.isEmpty else { return nil }
                parameters[name] = decoding ? (value.removingPercentEncoding ?? value) : value
                rest = rest[end...]
            }
        }
        return rest.isEmpty ? parameters : nil
    }

    /// Where `literal` ends in `text` when `text` starts with it (as characters), else `nil`. Compared by
    /// bytes when that is the same: an ASCII literal without a carriage return, followed by an ASCII byte or
    /// nothing, starts and ends on character boundaries (only CR LF joins two ASCII characters); and a text
    /// of fewer bytes than such a literal has characters cannot start with it (each of its characters
    /// would be one byte).
    private static func end(of literal: String, startingAt text: Substring) -> Substring.Index? {
        let bytes = text.utf8
        let count = literal.utf8.count
        let isPlain = literal.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") }
        if isPlain {
            guard bytes.count >= count else { return nil }
            let end = bytes.index(bytes.startIndex, offsetBy: count)
            if end == bytes.endIndex || bytes[end] < 0x80 {
                return bytes[..<end].elementsEqual(literal.utf8) ? end : nil
            }
        }
        guard text.hasPrefix(literal) else { return nil }
        return text.index(text.startIndex, offsetBy: literal.count)
    }

    static func parse(_ pattern: String) -> [Component] {
        var components: [Component] = []
        var literal = ""
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        func isNameBody(_ scalar: Unicode.Scalar) -> Bool {
            isNameStart(scalar) || ("0"..."9").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == ":", index + 1 < scalars.count, isNameStart(scalars[index + 1]) {
                var name = ""
                index += 1
                while index < scalars.count {
                    if isNameBody(scalars[index]) {
                        name.unicodeScalars.append(scalars[index])
                        index += 1
                    } else if scalars[index] == ".", index + 1 < scalars.count, isNameStart(scalars[index + 1]) {
                        // `:restaurant.restaurantID` — a key path through a relationship.
                        name.unicodeScalars.append(".")
                        index += 1
                    } else {
                        break
                    }
                }
                if !literal.isEmpty {
                    components.append(.literal(literal))
                    literal = ""
                }
                components.append(.parameter(name))
            } else {
                literal.unicodeScalars.append(scalar)
                index += 1
            }
        }
        if !literal.isEmpty { components.append(.literal(literal)) }
        return components
    }

    static func percentEncodeSegment(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
