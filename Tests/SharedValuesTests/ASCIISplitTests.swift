import Diagnostics
import SharedValues
import Testing

/// `split(ascii:)` gives what `split(separator:)` with the same character gives, on text of every kind.
struct ASCIISplitTests {
    /// Texts with separators at the ends, doubled and alone, and characters of one to four UTF-8 bytes.
    static let texts = [
        "", "/", "//", "a", "/a", "a/", "/a/b", "a//b", "///a///", "/restaurants/12", "é/ü/日本/🙂", "/🙂🙂/",
        "a.b.c", "..", "1.2", "x=1&y=2", "ä/b", "/a/b/c/d/e/f",
    ]

    @Test(arguments: texts)
    func splitsAsTheCharacterSplitDoes(text: String) {
        for separator in ["/", ".", "&"] as [Character] {
            let byte = separator.asciiValue!
            for omitting in [true, false] {
                for maxSplits in [0, 1, 2, Int.max] {
                    let expected = text.split(
                        separator: separator,
                        maxSplits: maxSplits,
                        omittingEmptySubsequences: omitting
                    )
                    let split = text.split(ascii: byte, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                    #expect(split == expected, "\(text) on \(separator), \(maxSplits), \(omitting)")
                    let substring = Substring(text).split(
                        ascii: byte,
                        maxSplits: maxSplits,
                        omittingEmptySubsequences: omitting
                    )
                    #expect(substring == expected, "a Substring: \(text)")
                }
            }
            #expect(text.firstIndex(ascii: byte) == text.firstIndex(of: separator), "\(text)")
        }
    }

    /// The random texts of an alphabet with the separators in it, against the standard library's split.
    @Test func randomTextsSplitAsTheCharacterSplitDoes() {
        var random = SplitMix64(seed: 33)
        let alphabet = Array("ab/./é🙂/")
        for _ in 0..<500 {
            let count = Int(random.next() % 12)
            let text = String((0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            let maxSplits = Int(random.next() % 4)
            #expect(
                text.split(ascii: UInt8(ascii: "/"), maxSplits: maxSplits)
                    == text.split(separator: "/", maxSplits: maxSplits),
                "\(text)"
            )
            #expect(
                text.split(ascii: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                    == text.split(separator: "/", omittingEmptySubsequences: false),
                "\(text)"
            )
        }
    }

    /// `contains(ascii:)`, `lineFeedOffsets` and `lineRanges` find what a search a byte at a time finds, in a whole text,
    /// a part of one (its bytes not from the start), and nothing.
    @Test(arguments: texts + ["a*b", "*", "\n", "a\nb\n\nc", "\n\n", "🙂\n*é"])
    func bytesAreFoundWhereTheByteSearchFindsThem(text: String) {
        for part in [text[...], text.dropFirst(), text.dropLast()] {
            for byte in [UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "\n")] {
                #expect(part.contains(ascii: byte) == part.utf8.contains(byte), "\(part.debugDescription)")
            }
            let expected = part.utf8.enumerated().filter { $0.element == UInt8(ascii: "\n") }.map(\.offset)
            var bytes = part
            #expect(
                bytes.withUTF8 { UnsafeRawBufferPointer($0).lineFeedOffsets } == expected,
                "\(part.debugDescription)"
            )
            // The lines are what splitting at every line feed gives, less a last empty one.
            var lines = Array(part.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            let ranges = lines.map { $0.startIndex..<$0.endIndex }
            #expect(bytes.withUTF8 { UnsafeRawBufferPointer($0).lineRanges } == ranges, "\(part.debugDescription)")
        }
    }

}
