/// A file's text with the offsets where its lines start, built once so that every diagnostic of the
/// file finds its source line without reading the text again.
///
/// ```swift
/// let source = SourceText("a: 1\r\nb: 2\n")
/// source.line(2)   // "b: 2" (no line break, no carriage return)
/// ```
package struct SourceText: Sendable {
    /// The whole text.
    package let text: String
    /// The UTF-8 offset where each line starts; line `n` starts at `lineStarts[n - 1]`.
    private let lineStarts: [Int]

    package init(_ text: String) {
        self.text = text
        var text = text
        // Over the bytes in place, the line feeds found with `memchr` (a byte at a time, twice, was most of
        // indexing a file: every file loaded, and every scenario a worker builds, is indexed).
        lineStarts = text.withUTF8 { bytes in
            let bytes = UnsafeRawBufferPointer(bytes)
            // Counted first and made to size: a large file's index grown by doubling held two buffers at once.
            var lines = 1
            bytes.forEachLineFeed { _ in lines += 1 }
            var starts = [0]
            starts.reserveCapacity(lines)
            bytes.forEachLineFeed { starts.append($0 + 1) }
            return starts
        }
    }

    /// How many lines the text has (a final line break does not start another line with text, but counts).
    package var lineCount: Int { lineStarts.count }

    /// The text of line `number` (1-based), without its line break or a carriage return before it;
    /// `nil` past the end.
    package func line(_ number: Int) -> String? {
        guard number >= 1, number <= lineStarts.count else { return nil }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: lineStarts[number - 1])
        var end =
            number < lineStarts.count
            ? utf8.index(utf8.startIndex, offsetBy: lineStarts[number] - 1) : utf8.endIndex
        if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
        return String(text[start..<end])
    }
}

extension Diagnostic {
    /// Builds a diagnostic, taking the offending line from the file's line index.
    package init(_ message: String, at location: SourceLocation, in source: SourceText) {
        self.init(location: location, message: message, line: .indexed(source, location.line))
    }

    /// Builds a diagnostic whose message ends with `suggestion`, searched for only when the message is
    /// read: `message` is what comes before it (`Unknown step 'stub rout'.`).
    package init(_ message: String, suggestion: Suggestion?, at location: SourceLocation, in source: SourceText) {
        self.init(location: location, message: message, suggestion: suggestion, line: .indexed(source, location.line))
    }
}

extension Diagnostic.Source {
    /// The location, with its line taken from the file's line index.
    package init(location: SourceLocation, in source: SourceText) {
        self.init(location: location, line: .indexed(source, location.line))
    }
}
