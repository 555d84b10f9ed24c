import Foundation
import Testing

@testable import YAMLSource

/// A file is read straight into its text's storage and checked there: the text, the bytes before it and
/// every refusal are what checking the same bytes in memory gives.
struct YAMLTextReadTests {
    /// Contents of every kind a file holds: plain, empty, a byte-order mark (alone, before text, before
    /// a line break), CR LF, non-ASCII, and bytes refused at a place.
    static let contents: [[UInt8]] = [
        Array("scenarios:\n  - scenario: A\n".utf8),
        [],
        [0xEF, 0xBB, 0xBF],
        [0xEF, 0xBB, 0xBF] + Array("scenarios: []\n".utf8),
        [0xEF, 0xBB, 0xBF, 0x0A],
        Array("a: 1\r\nb: 2\r\n".utf8),
        Array("name: Résumé ✓\n".utf8),
        [0xEF, 0xBB] + Array("x\n".utf8),
        Array("a: 1\nb: ".utf8) + [0xFF] + Array("\n".utf8),
        Array("a: 1\n\nkey: va".utf8) + [0x01] + Array("lue\n".utf8),
        Array(String(repeating: "- step: { a: 1 }\n", count: 5000).utf8),
    ]

    func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("yaml-read-\(UUID().uuidString).yml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func checked(_ bytes: [UInt8]) -> Result<YAMLText, YAMLError> {
        bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(YAMLError) in try YAMLText(validating: buffer) }
        }
    }

    @Test(arguments: contents.indices)
    func aFileReadsAsItsBytesCheckedInMemory(index: Int) throws {
        let bytes = Self.contents[index]
        let path = try file(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = Result { () throws(YAMLError) in try YAMLText.read(contentsOf: path) }
        switch (read, checked(bytes)) {
        case (.success(let read), .success(let checked)):
            #expect(read.text == checked.text)
            #expect(read.bytesBeforeText == checked.bytesBeforeText)
            #expect(read.isASCII == checked.isASCII)
            #expect(read.source.lineCount == checked.source.lineCount)
        case (.failure(let read), .failure(let checked)):
            #expect(read == checked)
        case (let read, let checked):
            Issue.record("read \(read), checked in memory \(checked)")
        }
    }

    @Test func aFileLongerThanItsSizeSaidIsReadAgain() throws {
        let path = try file(Array("a: 1\nb: 2\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        // Told it is shorter than it is (a file still growing): no text, so that it is read again.
        #expect(try YAMLText.readText(descriptor, size: 4) == nil)
        _ = lseek(descriptor, 0, SEEK_SET)
        #expect(try YAMLText.readText(descriptor, size: 10)?.text == "a: 1\nb: 2\n")
        // Told it is longer: what is there.
        _ = lseek(descriptor, 0, SEEK_SET)
        #expect(try YAMLText.readText(descriptor, size: 64)?.text == "a: 1\nb: 2\n")
    }
}
