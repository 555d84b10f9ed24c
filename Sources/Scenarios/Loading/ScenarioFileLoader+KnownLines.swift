import SharedValues
import YAMLSource

/// Step lines written again the way a step was built before in the file — `- post object: { class:
/// Review, … }` — are handed to libyaml with their arguments left out (`- post object: {}`): a suite of
/// many scenarios repeats its steps, and reading the same argument text again was most of loading it
/// (DECISIONS 198).
///
/// Only what cannot change a result is left out. A line is looked at only when it is a list item whose
/// step name is plain (`- name: `) and whose value, to the end of the line, is a flow mapping already
/// built from these very bytes under that name (``ScenarioFileLoader/builtBySpan``: no alias, anchor or
/// `$`, nothing reported, one line). Every place left out must then come back from libyaml as a step's
/// arguments — the empty mapping at the same place, the value of a step in the `steps:` list of a
/// scenario that is not an outline — or the part is composed again as written. Lines, columns and every
/// byte outside the left-out text are as written, so every diagnostic is too.
extension ScenarioFileLoader {
    /// A text to compose with the arguments of known step lines left out.
    struct KnownLines {
        /// An argument text left out: the name it was written under, the text, and the step built from it.
        struct LeftOut {
            var name: Substring
            var text: Substring
            var step: Step
        }

        /// The part as composed: the arguments of known step lines left out.
        var text: String
        /// What was left out, by the UTF-8 offset in ``text`` of the empty mapping standing for it.
        var leftOut: [Int: LeftOut]
    }

    /// `part` with the arguments of its known step lines left out, or `nil` when it has none (or the file
    /// is not ASCII, where libyaml's offsets are not bytes).
    func leavingOutKnownLines(of part: Substring) -> KnownLines? {
        guard isASCII, !builtBySpan.isEmpty, !part.isEmpty else { return nil }
        var bytesOfPart = part
        return bytesOfPart.withUTF8 { bytes -> KnownLines? in
            var scan = PartScan(part: part)
            var item = ItemScan()
            for range in UnsafeRawBufferPointer(bytes).lineRanges {
                let line = StepLine(bytes, range)
                if line.startsItem(at: item.indentation ?? line.indentation) {
                    // A new scenario: the one before is done.
                    scan.leaveOut(item, builtBySpan)
                    item = ItemScan(indentation: line.indentation, keyIndentation: line.contentStart)
                }
                if item.isOutline || line.isKey("examples", at: item.keyIndentation) {
                    item.isOutline = true
                } else if let (name, span) = line.argumentsWritten(), Self.mayStandElsewhere(bytes[span]) {
                    item.found.append((name, span))
                }
            }
            scan.leaveOut(item, builtBySpan)
            return scan.finished()
        }
    }

    /// Whether an argument text means the same wherever it is written: no alias, anchor or `$` in it, and
    /// not nested so deep that another place could put it past ``YAMLLimits/maxDepth``.
    private static func mayStandElsewhere(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var depth = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "&"), UInt8(ascii: "$"): return false
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            default: break
            }
        }
        return depth <= 64
    }

    /// Whether every argument text left out came back as the arguments of a step of a scenario that is
    /// not an outline: `items` are the composed scenarios.
    static func leftOutAreAllSteps(_ items: [YAMLNode], _ leftOut: [Int: KnownLines.LeftOut]) -> Bool {
        var found = 0
        for item in items {
            guard let pairs = item.pairs, !pairs.contains(where: { $0.key.string == "examples" }) else { continue }
            for (key, steps) in pairs where key.string == "steps" {
                for step in steps.items ?? [] {
                    for (name, arguments) in step.pairs ?? [] where name.string != "timeout" {
                        if let span = arguments.flowSpan, span.count == 2, leftOut[span.lowerBound] != nil {
                            found += 1
                        }
                    }
                }
            }
        }
        return found == leftOut.count
    }

    /// The arguments a left-out text stands for, composed on their own where `node` (the empty mapping)
    /// stands: for a step that cannot take the step built before (names are bound before it), so that it
    /// reads them as written, at their lines and columns.
    func writtenArguments(_ leftOut: KnownLines.LeftOut, at node: YAMLNode) -> YAMLNode? {
        var composer = YAMLComposer()
        let indented = String(repeating: " ", count: max(0, node.column - 1)) + leftOut.text
        guard let composed = try? composer.compose(indented[...]) else { return nil }
        return composed.movedDown(by: node.line - 1)
    }

    // MARK: Scanning

    /// The part as it is scanned: the text composed so far, and what was left out of it.
    private struct PartScan {
        let part: Substring
        var text = ""
        var leftOut: [Int: KnownLines.LeftOut] = [:]
        /// Bytes of the part already in `text`.
        var copied = 0

        /// The bytes `range` of the part.
        func slice(_ range: Range<Int>) -> Substring {
            let start = part.utf8.index(part.startIndex, offsetBy: range.lowerBound)
            return part[start..<part.utf8.index(start, offsetBy: range.count)]
        }

        /// Leaves out the arguments of the step lines of a scenario that were built before (`built`), unless
        /// it is an outline (whose rows count its nodes).
        mutating func leaveOut(_ item: ItemScan, _ built: [WrittenSpan: Step]) {
            guard !item.isOutline else { return }
            for (name, span) in item.found {
                let written = WrittenSpan(name: slice(name), text: slice(span))
                guard let step = built[written] else { continue }
                text += slice(copied..<(span.lowerBound + 1))
                leftOut[text.utf8.count - 1] = KnownLines.LeftOut(name: written.name, text: written.text, step: step)
                text += slice((span.upperBound - 1)..<span.upperBound)
                copied = span.upperBound
            }
        }

        func finished() -> KnownLines? {
            guard !leftOut.isEmpty else { return nil }
            return KnownLines(text: text + slice(copied..<part.utf8.count), leftOut: leftOut)
        }
    }

    /// One scenario of the part as it is scanned: its indentation and its keys', whether it is an outline,
    /// and its step lines written as one flow mapping.
    private struct ItemScan {
        var indentation: Int?
        var keyIndentation: Int?
        var isOutline = false
        /// Step lines that may be left out: the bytes of their name and of their arguments.
        var found: [(name: Range<Int>, span: Range<Int>)] = []
    }

    /// A line of the part, read by its bytes.
    private struct StepLine {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The line without its line break (and without a CR before it).
        let range: Range<Int>
        /// Its leading spaces.
        let indentation: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            self.bytes = bytes
            var end = range.upperBound
            if end > range.lowerBound, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            self.range = range.lowerBound..<end
            var index = range.lowerBound
            while index < end, bytes[index] == UInt8(ascii: " ") { index += 1 }
            indentation = index - range.lowerBound
        }

        /// `-` at `indentation`, then a space or the end of the line.
        func startsItem(at indentation: Int) -> Bool {
            let dash = range.lowerBound + indentation
            guard self.indentation == indentation, dash < range.upperBound, bytes[dash] == UInt8(ascii: "-") else {
                return false
            }
            return dash + 1 == range.upperBound || bytes[dash + 1] == UInt8(ascii: " ")
        }

        /// The column (from 0) of what follows the item's `-` and its spaces.
        var contentStart: Int {
            var index = range.lowerBound + indentation + 1
            while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
            return index - range.lowerBound
        }

        /// Whether the line is `key:` at `column` (the item's first line counts from after its `-`).
        func isKey(_ key: StaticString, at column: Int?) -> Bool {
            guard let column else { return false }
            let start = range.lowerBound + column
            let count = key.utf8CodeUnitCount
            guard start + count < range.upperBound else { return false }
            for offset in 0..<count where bytes[start + offset] != key.utf8Start[offset] { return false }
            var index = start + count
            while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
            return index < range.upperBound && bytes[index] == UInt8(ascii: ":")
        }

        /// For `- name: {…}` (a plain name of letters, digits, spaces, `_` and `-`; nothing after the mapping
        /// but spaces): the name's bytes and the mapping's.
        func argumentsWritten() -> (name: Range<Int>, span: Range<Int>)? {
            var index = range.lowerBound + indentation
            guard index + 1 < range.upperBound, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: " ")
            else { return nil }
            index += 1
            while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
            let nameStart = index
            guard index < range.upperBound, Self.isLetter(bytes[index]) else { return nil }
            while index < range.upperBound, Self.isNameByte(bytes[index]) { index += 1 }
            guard index < range.upperBound, bytes[index] == UInt8(ascii: ":"), bytes[index - 1] != UInt8(ascii: " ")
            else { return nil }
            let name = nameStart..<index
            index += 1
            guard index < range.upperBound, bytes[index] == UInt8(ascii: " ") else { return nil }
            while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
            var end = range.upperBound
            while end > index, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            guard end - index >= 2 else { return nil }
            guard bytes[index] == UInt8(ascii: "{"), bytes[end - 1] == UInt8(ascii: "}") else { return nil }
            return (name, index..<end)
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }

        private static func isNameByte(_ byte: UInt8) -> Bool {
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: " ")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
