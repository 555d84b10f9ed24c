package import Diagnostics
import Foundation

/// The text of a YAML file, checked before anything parses it: at most ``YAMLLimits/maxFileBytes``,
/// valid UTF-8 without the control characters YAML forbids (so binary data is a located error, not a
/// decoding failure), a leading byte-order mark dropped. Its ``source`` indexes the lines once for
/// every diagnostic of the file.
///
/// ```swift
/// let text = try YAMLText.read(contentsOf: "Scenarios/reviews.yml")
/// let root = try YAMLComposer().compose(text)
/// ```
package struct YAMLText: Sendable {
    /// The text (without a byte-order mark) and its line index.
    package let source: SourceText
    /// The bytes before ``text`` in what was read: 3 for a byte-order mark, else 0.
    package private(set) var bytesBeforeText = 0
    /// Whether every byte of ``text`` is ASCII (each character one byte), found while it was checked.
    package private(set) var isASCII = true

    package var text: String { source.text }

    /// Reads and checks a file; a file over the size limit is refused before it is read, and so is
    /// anything but a regular file (a FIFO would block the read, a device never end it).
    package static func read(contentsOf path: String) throws(YAMLError) -> YAMLText {
        var status = stat()
        guard stat(path, &status) == 0 else { throw YAMLError(.unreadable) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw YAMLError(.notARegularFile) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw YAMLError(.unreadable) }
        defer { try? handle.close() }
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0 else { throw YAMLError(.unreadable) }
        guard Int(info.st_size) <= YAMLLimits.maxFileBytes else {
            throw YAMLError(.fileTooLarge(bytes: Int(info.st_size)))
        }
        // The size it said, read straight into the text's storage (a file read into `Data` first held its
        // bytes twice, at the largest moment of a large suite's loading); one that turns out longer (still
        // growing) is read again below.
        if let text = try readText(handle.fileDescriptor, size: Int(info.st_size)) { return text }
        guard lseek(handle.fileDescriptor, 0, SEEK_SET) == 0 else { throw YAMLError(.unreadable) }
        // Never more than the limit and one byte, whatever the size said (a file still growing, a device).
        let data: Data
        do {
            data = try handle.read(upToCount: YAMLLimits.maxFileBytes + 1) ?? Data()
        } catch {
            throw YAMLError(.unreadable)
        }
        guard data.count <= YAMLLimits.maxFileBytes else { throw YAMLError(.fileTooLarge(bytes: data.count)) }
        // `withUnsafeBytes` rethrows untyped: the typed error travels in a `Result`.
        return try data.withUnsafeBytes { raw in
            Result { () throws(YAMLError) in try YAMLText(validating: raw.bindMemory(to: UInt8.self)) }
        }.get()
    }

    /// The text of a file of `size` bytes, read into the string's own storage and checked there; `nil`
    /// when there is more to read than the size said.
    static func readText(_ descriptor: Int32, size: Int) throws(YAMLError) -> YAMLText? {
        var problem: YAMLError?
        var longer = false
        var bytesBeforeText = 0
        var isASCII = true
        // One byte more than the size, to see that nothing follows it.
        let text = String(unsafeUninitializedCapacity: size + 1) { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var filled = 0
            while filled < buffer.count {
                let count = systemRead(descriptor, base + filled, buffer.count - filled)
                if count > 0 {
                    filled += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    problem = YAMLError(.unreadable)
                    return 0
                }
            }
            if filled > size {
                longer = true
                return 0
            }
            do throws(YAMLError) {
                (bytesBeforeText, isASCII) = try checked(UnsafeBufferPointer(start: base, count: filled))
            } catch {
                problem = error
                return 0
            }
            // The text without its byte-order mark.
            if bytesBeforeText > 0 {
                filled -= bytesBeforeText
                UnsafeMutableRawPointer(base).copyMemory(from: base + bytesBeforeText, byteCount: filled)
            }
            return filled
        }
        if let problem { throw problem }
        if longer { return nil }
        return YAMLText(source: SourceText(text), bytesBeforeText: bytesBeforeText, isASCII: isASCII)
    }

    private init(source: SourceText, bytesBeforeText: Int, isASCII: Bool) {
        self.source = source
        self.bytesBeforeText = bytesBeforeText
        self.isASCII = isASCII
    }

    /// Checks text already in memory (it is valid UTF-8, but may hold control characters or be too large).
    package init(checking text: String) throws(YAMLError) {
        var text = text
        self = try text.withUTF8 { bytes in Result { () throws(YAMLError) in try YAMLText(validating: bytes) } }.get()
    }

    /// Checks bytes: size, UTF-8, control characters; drops a leading byte-order mark.
    package init(validating bytes: UnsafeBufferPointer<UInt8>) throws(YAMLError) {
        guard bytes.count <= YAMLLimits.maxFileBytes else { throw YAMLError(.fileTooLarge(bytes: bytes.count)) }
        (bytesBeforeText, isASCII) = try Self.checked(bytes)
        source = SourceText(String(decoding: UnsafeBufferPointer(rebasing: bytes[bytesBeforeText...]), as: UTF8.self))
    }

    /// A file's bytes checked (``validate(_:)``) after UTF-8's byte-order mark (EF BB BF), which is not part
    /// of the text: how many bytes come before the text (3 with the mark), and whether the text is ASCII.
    /// The one check of a file's bytes, read from disk or given in memory.
    static func checked(_ bytes: UnsafeBufferPointer<UInt8>) throws(YAMLError) -> (bytesBeforeText: Int, isASCII: Bool)
    {
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        let bytesBeforeText = hasMark ? 3 : 0
        return (bytesBeforeText, try validate(UnsafeBufferPointer(rebasing: bytes[bytesBeforeText...])))
    }

    /// Throws at the first byte that is not UTF-8, or the first character YAML does not allow
    /// (C0 and C1 controls but tab, line feed, carriage return and NEL; U+FFFE, U+FFFF), as libyaml's
    /// reader checks — so libyaml never reports a reader error, which it could not locate. Returns whether
    /// every byte is ASCII.
    @discardableResult
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(YAMLError) -> Bool {
        var isASCII = true
        var index = 0
        var line = 1
        var lineStart = 0
        let count = bytes.count
        func location(_ reason: YAMLError.Reason, at offset: Int) -> YAMLError {
            // Columns count characters: every byte that is not a continuation byte starts one.
            var column = 1
            for position in lineStart..<offset where bytes[position] & 0xC0 != 0x80 { column += 1 }
            return YAMLError(reason, line: line, column: column)
        }
        while index < count {
            // Eight bytes at once while they are printable ASCII — no control character, no line break, no
            // DEL, nothing above: most of a file. Any other byte is read alone, below.
            if index + 8 <= count, let base = bytes.baseAddress {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let delete = word ^ (ones &* 0x7F)
                let unusual =
                    (word & highs) | ((word &- ones &* 0x20) & ~word & highs) | ((delete &- ones) & ~delete & highs)
                if unusual == 0 {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte >= 0x20 && byte != 0x7F || byte == 0x09 || byte == 0x0D {
                    index += 1
                    continue
                }
                if byte == 0x0A {
                    index += 1
                    line += 1
                    lineStart = index
                    continue
                }
                throw location(.controlCharacter(UInt32(byte)), at: index)
            }
            isASCII = false
            let length: Int
            var value: UInt32
            switch byte {
            case 0xC2...0xDF: length = 2; value = UInt32(byte & 0x1F)
            case 0xE0...0xEF: length = 3; value = UInt32(byte & 0x0F)
            case 0xF0...0xF4: length = 4; value = UInt32(byte & 0x07)
            default: throw location(.invalidUTF8(byte: byte), at: index)
            }
            for offset in 1..<length {
                guard index + offset < count, bytes[index + offset] & 0xC0 == 0x80 else {
                    throw location(.invalidUTF8(byte: byte), at: index)
                }
                value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
            }
            let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
                throw location(.invalidUTF8(byte: byte), at: index)
            }
            if (0x80...0x9F).contains(value) && value != 0x85 || value == 0xFFFE || value == 0xFFFF {
                throw location(.controlCharacter(value), at: index)
            }
            index += length
        }
        return isASCII
    }
}

extension YAMLText {
    /// ``read(contentsOf:)``, a failure thrown as the one diagnostic of `file` (the name users see).
    package static func read(contentsOf path: String, file: String) throws(DiagnosticList) -> YAMLText {
        do {
            return try read(contentsOf: path)
        } catch {
            throw DiagnosticList([error.diagnostic(file: file, source: nil)])
        }
    }

    /// ``init(checking:)``, a failure thrown as the one diagnostic of `file`.
    package init(checking text: String, file: String) throws(DiagnosticList) {
        do {
            self = try YAMLText(checking: text)
        } catch {
            throw DiagnosticList([error.diagnostic(file: file, source: nil)])
        }
    }
}

#if canImport(Glibc)
    private let systemRead = Glibc.read
#elseif canImport(Musl)
    private let systemRead = Musl.read
#endif
