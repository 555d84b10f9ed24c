import Testing
import YAMLSource

/// The check of a file's bytes, which reads eight printable ASCII bytes at a time: every other byte, at
/// every place in a word and across words, is found where it is, or let through, as one read alone would.
struct YAMLTextValidationTests {
    /// Bytes a line may hold (tab, carriage return, line feed, `é`) and bytes it may not, with what is said.
    static let cases: [(bytes: [UInt8], error: YAMLError.Reason?)] = [
        ([0x09], nil), ([0x0D], nil), ([0x0A], nil), ([0xC3, 0xA9], nil), ([0x7E], nil),
        ([0x00], .controlCharacter(0x00)), ([0x01], .controlCharacter(0x01)), ([0x0B], .controlCharacter(0x0B)),
        ([0x1F], .controlCharacter(0x1F)), ([0x7F], .controlCharacter(0x7F)), ([0x80], .invalidUTF8(byte: 0x80)),
        ([0xFF], .invalidUTF8(byte: 0xFF)), ([0xC3], .invalidUTF8(byte: 0xC3)),
    ]

    @Test(arguments: cases.indices)
    func aByteIsFoundWhereverItIs(_ index: Int) throws {
        let (special, error) = Self.cases[index]
        for place in 0..<40 {
            for length in [place + special.count, place + special.count + 1, place + special.count + 9, 48] {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: max(length, place + special.count))
                bytes.replaceSubrange(place..<place + special.count, with: special)
                let checked = bytes.withUnsafeBufferPointer { buffer in
                    Result { () throws(YAMLError) in try YAMLText(validating: buffer) }
                }
                switch (checked, error) {
                case (.success(let text), nil):
                    #expect(text.isASCII == special.allSatisfy { $0 < 0x80 }, "at \(place) of \(bytes.count)")
                case (.failure(let thrown), let expected?):
                    #expect(thrown.reason == expected, "at \(place) of \(bytes.count)")
                    #expect(thrown.line == 1 && thrown.column == place + 1, "at \(place) of \(bytes.count)")
                case (.success, let expected?):
                    Issue.record("\(expected) let through at \(place) of \(bytes.count)")
                case (.failure(let thrown), nil):
                    Issue.record("\(thrown.reason) thrown at \(place) of \(bytes.count)")
                }
            }
        }
    }

    /// Lines are counted across the words read at once: a bad byte after line breaks is on its line.
    @Test func aByteAfterLineBreaksIsOnItsLine() {
        let text = "- scenario: Posting a review\n  steps:\n    - succeed: yes\n    - fail\u{01}: no\n"
        #expect(throws: YAMLError(.controlCharacter(0x01), line: 4, column: 11)) {
            try YAMLText(checking: text)
        }
    }
}
