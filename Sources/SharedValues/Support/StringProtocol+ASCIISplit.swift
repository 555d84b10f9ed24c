import Glibc

extension StringProtocol {
    /// The parts of the text between each `separator`, an ASCII byte — what `split(separator:)` with
    /// that character gives — found in its UTF-8 bytes instead of its characters: splitting a path, a
    /// key path or a header value on a `Character` breaks the text into grapheme clusters first, several
    /// times the work, on every request. (An ASCII byte never falls inside another character's bytes; a
    /// separator followed by a combining mark is a separator here, as in the bytes of a URL.)
    ///
    /// ```swift
    /// "/restaurants/12".split(ascii: UInt8(ascii: "/"))   // ["restaurants", "12"]
    /// ```
    @inlinable
    package func split(
        ascii separator: UInt8,
        maxSplits: Int = .max,
        omittingEmptySubsequences: Bool = true
    ) -> [SubSequence] {
        var parts: [SubSequence] = []
        let bytes = utf8
        var start = bytes.startIndex
        var index = start
        if maxSplits > 0 {
            while index != bytes.endIndex {
                guard bytes[index] == separator else {
                    index = bytes.index(after: index)
                    continue
                }
                let appends = !omittingEmptySubsequences || start != index
                if appends { parts.append(self[start..<index]) }
                index = bytes.index(after: index)
                start = index
                if appends && parts.count == maxSplits { break }
            }
        }
        if !omittingEmptySubsequences || start != bytes.endIndex { parts.append(self[start..<bytes.endIndex]) }
        return parts
    }

    /// Where the first `byte`, an ASCII byte, is: `firstIndex(of:)` with that character, in the UTF-8 bytes.
    @inlinable
    package func firstIndex(ascii byte: UInt8) -> Index? {
        utf8.firstIndex(of: byte)
    }
}

extension Substring {
    /// Whether the text holds `byte`, an ASCII byte: `memchr` over its UTF-8 bytes (a search a byte at a
    /// time is several instructions a byte).
    package func contains(ascii byte: UInt8) -> Bool {
        var text = self
        return text.withUTF8 { bytes in
            bytes.baseAddress.map { memchr($0, Int32(byte), bytes.count) != nil } ?? false
        }
    }
}
