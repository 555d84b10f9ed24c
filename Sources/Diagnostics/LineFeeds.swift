import Glibc

extension UnsafeRawBufferPointer {
    /// The offsets of the line feeds in the bytes, found with `memchr` (a byte-at-a-time search was most
    /// of cutting a file into lines, and of reading a worker's messages).
    ///
    /// ```swift
    /// Array("a\nbc\n".utf8).withUnsafeBytes { $0.lineFeedOffsets }   // [1, 4]
    /// ```
    package var lineFeedOffsets: [Int] {
        var offsets: [Int] = []
        forEachLineFeed { offsets.append($0) }
        return offsets
    }

    /// Calls `body` with the offset of each line feed in the bytes, in order, found with `memchr`.
    package func forEachLineFeed(_ body: (Int) -> Void) {
        guard let base = baseAddress, !isEmpty else { return }
        var offset = 0
        while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
            let index = base.distance(to: UnsafeRawPointer(found))
            body(index)
            offset = index + 1
        }
    }

    /// The lines of the bytes, each without its line feed; a last line without one counts when it is not
    /// empty (`"a\n\nb"`: `0..<1`, `2..<2`, `3..<4`; `"a\n"`: `0..<1`).
    package var lineRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        forEachLineFeed { end in
            ranges.append(start..<end)
            start = end + 1
        }
        if start < count { ranges.append(start..<count) }
        return ranges
    }
}
