import Diagnostics
import SharedValues

/// A scenario file cut into parts that compose on their own: each top-level `key:` with its value, and
/// each item of the `scenarios:` block list, so that a large file is composed one scenario at a time.
///
/// Only the plain layout is cut: top-level lines that are `key:` (a plain key), `scenarios:` with its
/// list on the following lines, items all starting with `-` at one indentation. Anything else — flow
/// style at the top, quoted or complex keys, document markers, directives, tabs in indentation, a key
/// written twice — gives `nil`, and the loader composes the whole document as before. A part that does
/// not compose to what the layout promised also sends the loader back to the whole document, so a
/// misjudged boundary can cost time but never change a result.
///
/// ```swift
/// let chunks = ScenarioFileChunks("feature: Reviews\nscenarios:\n  - scenario: A\n    steps: [succeed]\n")
/// chunks?.keys.count        // 1: `feature: Reviews`
/// chunks?.scenarios.count   // 1: lines 3–4, composed with a line offset of 2
/// ```
struct ScenarioFileChunks {
    /// Lines of the file, and the number of lines before them (added to the lines of their marks).
    struct Chunk {
        var range: Range<String.Index>
        var lineOffset: Int
    }

    /// Every top-level key but `scenarios`, in file order.
    private(set) var keys: [Chunk] = []
    /// Every item of the `scenarios:` list, in file order.
    private(set) var scenarios: [Chunk] = []

    init?(_ text: String) {
        let lines = Self.lines(of: text)
        var seenKeys: Set<Substring> = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.isBlankOrComment {
                index += 1
                continue
            }
            guard line.indentation == 0, let key = line.plainKey, seenKeys.insert(key).inserted else { return nil }
            if key == "scenarios" {
                guard line.valueIsEmpty, let end = readScenarios(lines, after: index) else { return nil }
                index = end
            } else {
                var end = index + 1
                while end < lines.count, !lines[end].startsTopLevel { end += 1 }
                keys.append(Chunk(range: line.start..<lines.endWithBreak(end - 1), lineOffset: index))
                index = end
            }
        }
        guard !scenarios.isEmpty else { return nil }
    }

    /// Reads the items after `scenarios:` (at `keyLine`); returns the index of the first line after them.
    private mutating func readScenarios(_ lines: Lines, after keyLine: Int) -> Int? {
        var itemIndentation: Int?
        var itemStart: Int?
        var index = keyLine + 1
        func close(before end: Int) {
            guard let start = itemStart else { return }
            scenarios.append(Chunk(range: lines[start].start..<lines.endWithBreak(end - 1), lineOffset: start))
        }
        while index < lines.count {
            let line = lines[index]
            if line.isBlankOrComment {
                index += 1
                continue
            }
            let indentation = line.indentation
            if indentation == 0, !line.startsItem { break }  // the next top-level key
            let expected = itemIndentation ?? indentation
            guard indentation >= expected else { return nil }
            if indentation == expected {
                guard line.startsItem else { return nil }
                itemIndentation = expected
                close(before: index)
                itemStart = index
            } else if itemStart == nil {
                return nil
            }
            index += 1
        }
        close(before: index)
        return itemStart == nil ? nil : index
    }

    // MARK: Lines

    /// One line: where it starts, where it ends (before its line break) and its bytes.
    struct Line {
        var start: String.Index
        var end: String.Index
        var bytes: Substring.UTF8View

        /// Leading spaces; `Int.max` when the indentation holds a tab (which YAML forbids).
        var indentation: Int {
            var count = 0
            for byte in bytes {
                if byte == UInt8(ascii: " ") {
                    count += 1
                } else {
                    return byte == UInt8(ascii: "\t") ? Int.max : count
                }
            }
            return count
        }

        var isBlankOrComment: Bool {
            for byte in bytes where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\r") {
                return byte == UInt8(ascii: "#")
            }
            return true
        }

        /// Whether the line starts the next part at the top: neither indented nor blank nor a comment.
        var startsTopLevel: Bool {
            guard let first = bytes.first else { return false }
            return first != UInt8(ascii: " ") && first != UInt8(ascii: "#") && first != UInt8(ascii: "\r")
                && first != UInt8(ascii: "\t")
        }

        /// `-` after the indentation, then a space or the end of the line.
        var startsItem: Bool {
            var rest = bytes.drop { $0 == UInt8(ascii: " ") }
            guard rest.first == UInt8(ascii: "-") else { return false }
            rest = rest.dropFirst()
            guard let next = rest.first else { return true }
            return next == UInt8(ascii: " ") || next == UInt8(ascii: "\r")
        }

        /// The key of a top-level `key:` line whose key is a plain name (letters, digits, spaces, `_`,
        /// `-`, starting with a letter).
        var plainKey: Substring? {
            guard let first = bytes.first, Self.isLetter(first) else { return nil }
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let key = bytes[bytes.startIndex..<colon]
            guard
                key.allSatisfy({
                    Self.isLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "_")
                        || $0 == UInt8(ascii: "-")
                }),
                key.last != UInt8(ascii: " ")
            else { return nil }
            let after = bytes[colon...].dropFirst()
            if let next = after.first, next != UInt8(ascii: " "), next != UInt8(ascii: "\r") { return nil }
            return Substring(key)
        }

        /// Nothing after `key:` but spaces or a comment.
        var valueIsEmpty: Bool {
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
            for byte in bytes[colon...].dropFirst() where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\r") {
                return byte == UInt8(ascii: "#")
            }
            return true
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
    }

    /// The file's lines, each kept as where it starts and ends (16 bytes; a 10,000-scenario file has
    /// some 80,000 lines) and made a ``Line`` when read.
    struct Lines {
        let text: String
        var bounds: [Range<String.Index>] = []

        var count: Int { bounds.count }

        subscript(index: Int) -> Line {
            let range = bounds[index]
            return Line(start: range.lowerBound, end: range.upperBound, bytes: text[range].utf8)
        }

        /// Where line `index` ends with its line break: a part ending there composes as the whole file
        /// does (a block scalar on its last line keeps its final line break).
        func endWithBreak(_ index: Int) -> String.Index {
            let end = bounds[index].upperBound
            return end < text.endIndex ? text.utf8.index(after: end) : end
        }
    }

    /// The text's lines, cut at the line feeds of its UTF-8 bytes (``lineRanges``).
    private static func lines(of text: String) -> Lines {
        var text = text
        text.makeContiguousUTF8()
        let utf8 = text.utf8
        let ranges = text.withUTF8 { UnsafeRawBufferPointer($0).lineRanges }
        var lines = Lines(text: text)
        lines.bounds = ranges.map {
            utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound)
        }
        return lines
    }
}
