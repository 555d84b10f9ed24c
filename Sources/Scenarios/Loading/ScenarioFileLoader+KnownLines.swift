import Diagnostics
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

        /// The part scanned.
        var part: Substring
        /// The bytes of `part` left out, in order: the inside of each known step line's arguments (`{` and
        /// `}` stay).
        var removed: [Range<Int>]
        /// What was left out, by the UTF-8 offset in ``text`` of the empty mapping standing for it.
        var leftOut: [Int: LeftOut]
        /// The part's scenarios as scanned, when every one is written in the plain shape (``ItemScan/Shape``):
        /// made without libyaml, their steps those built before; `nil` otherwise.
        var plain: [PlainScenario]?

        /// The part as composed: the arguments of known step lines left out. Made when asked for: a part
        /// whose scenarios are all in the plain shape is not composed.
        var text: String {
            var text = ""
            text.reserveCapacity(part.utf8.count - removed.reduce(0) { $0 + $1.count })
            var copied = 0
            for range in removed {
                text += ScenarioFileLoader.slice(part, copied..<range.lowerBound)
                copied = range.upperBound
            }
            text += ScenarioFileLoader.slice(part, copied..<part.utf8.count)
            return text
        }
    }

    /// A scenario written in the plain shape (``ItemScan/Shape``) whose every step line was built before:
    /// what its scan found, lines and columns from 1 within the part. Made into a ``Scenario`` directly
    /// (``ScenarioFileLoader/scenario(_:in:firstLines:)``), or into the nodes composing its text makes
    /// (``node``) when its steps must be read again.
    struct PlainScenario {
        /// A step line: the step's name as written, where it is, where its arguments start, where the empty
        /// mapping standing for them is in ``KnownLines/text``, and the step built before from them.
        struct Line {
            var name: Substring
            var line: Int
            var column: Int
            var argumentsColumn: Int
            var place: Int
            var step: Step
        }

        /// The `scenario:` line, and the column of its keys.
        var line: Int
        var keyColumn: Int
        var name: String
        var nameColumn: Int
        /// The `steps:` line, and the column of its items.
        var stepsLine: Int
        var stepsColumn: Int
        /// At least one.
        var steps: [Line]

        /// The scenario as composing ``KnownLines/text`` makes it: every scalar, line, column and flow span.
        var node: YAMLNode {
            let steps = steps.map { step in
                let key = YAMLNode(
                    content: .scalar(String(step.name), isPlain: true),
                    line: step.line,
                    column: step.column
                )
                var arguments = YAMLNode(content: .mapping([]), line: step.line, column: step.argumentsColumn)
                arguments.flowSpan = step.place..<(step.place + 2)
                return YAMLNode(content: .mapping([(key, arguments)]), line: step.line, column: step.column)
            }
            return YAMLNode(
                content: .mapping([
                    (
                        YAMLNode(content: .scalar("scenario", isPlain: true), line: line, column: keyColumn),
                        YAMLNode(content: .scalar(name, isPlain: true), line: line, column: nameColumn)
                    ),
                    (
                        YAMLNode(content: .scalar("steps", isPlain: true), line: stepsLine, column: keyColumn),
                        YAMLNode(content: .sequence(steps), line: self.steps[0].line, column: stepsColumn)
                    ),
                ]),
                line: line,
                column: keyColumn
            )
        }
    }

    /// The bytes `range` of `part`.
    static func slice(_ part: Substring, _ range: Range<Int>) -> Substring {
        let start = part.utf8.index(part.startIndex, offsetBy: range.lowerBound)
        return part[start..<part.utf8.index(start, offsetBy: range.count)]
    }

    /// `part` with the arguments of its known step lines left out, or `nil` when it has none (or the file
    /// is not ASCII, where libyaml's offsets are not bytes).
    func leavingOutKnownLines(of part: Substring) -> KnownLines? {
        guard isASCII, !builtBySpan.isEmpty, !part.isEmpty else { return nil }
        var bytesOfPart = part
        return bytesOfPart.withUTF8 { bytes -> KnownLines? in
            var scan = PartScan(part: part)
            var item = ItemScan()
            for (index, range) in UnsafeRawBufferPointer(bytes).lineRanges.enumerated() {
                let line = StepLine(bytes, range)
                let written = line.argumentsWritten()
                if line.startsItem(at: item.indentation ?? line.indentation) {
                    // A new scenario: the one before is done.
                    scan.leaveOut(item, builtBySpan)
                    item = ItemScan(indentation: line.indentation, keyIndentation: line.contentStart)
                    // Room for a scenario's step lines at once: grown from empty, each list was reallocated
                    // three times a scenario.
                    item.found.reserveCapacity(8)
                    item.foundLines.reserveCapacity(8)
                    item.shape = ItemScan.Shape(firstLine: line, at: index)
                } else {
                    item.followShape(line, at: index, isStepLine: written != nil)
                }
                if item.isOutline || line.isKey("examples", at: item.keyIndentation) {
                    item.isOutline = true
                } else if let (name, span) = written, Self.mayStandElsewhere(bytes[span]) {
                    item.found.append((name, span))
                    item.foundLines.append((index, range.lowerBound))
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

    /// The part as it is scanned: how long the text composed so far is (``KnownLines/text``, made only
    /// when asked for), and what was left out of it.
    private struct PartScan {
        let part: Substring
        /// The UTF-8 length of the text composed so far.
        var length = 0
        var removed: [Range<Int>] = []
        var leftOut: [Int: KnownLines.LeftOut] = [:]
        /// Bytes of the part already in the text.
        var copied = 0
        /// The scenarios scanned so far, while every one is in the plain shape.
        var plain: [PlainScenario]? = []

        /// The bytes `range` of the part.
        func slice(_ range: Range<Int>) -> Substring {
            ScenarioFileLoader.slice(part, range)
        }

        /// Leaves out the arguments of the step lines of a scenario that were built before (`built`), unless
        /// it is an outline (whose rows count its nodes).
        mutating func leaveOut(_ item: ItemScan, _ built: [WrittenSpan: Step]) {
            guard !item.isOutline else {
                plain = nil
                return
            }
            // Where each argument text left out stands in `text`, its step's name and the step, in the order of
            // the lines.
            var places: [(place: Int, name: Substring, step: Step)] = []
            places.reserveCapacity(item.found.count)
            // Room for the scenario's step lines at once (a worker's part is one scenario: grown from empty one
            // line at a time, the table was rehashed three times). A table's room grows by doubling.
            leftOut.reserveCapacity(leftOut.count + item.found.count)
            for (name, span) in item.found {
                let written = WrittenSpan(name: slice(name), text: slice(span))
                guard let step = built[written] else { continue }
                // The text up to the `{`, which stands in the text for what is left out, and the `}`.
                length += span.lowerBound + 1 - copied
                places.append((length - 1, written.name, step))
                leftOut[length - 1] = KnownLines.LeftOut(name: written.name, text: written.text, step: step)
                length += 1
                removed.append((span.lowerBound + 1)..<(span.upperBound - 1))
                copied = span.upperBound
            }
            guard plain != nil, item.indentation != nil || item.lineCount > 0 else { return }
            if let shape = item.shape, shape.stepLines == item.found.count, places.count == item.found.count,
                let scenario = plainScenario(item, shape, places)
            {
                plain?.append(scenario)
            } else {
                plain = nil
            }
        }

        /// A scenario in the plain shape, every step line of it left out.
        private func plainScenario(
            _ item: ItemScan,
            _ shape: ItemScan.Shape,
            _ places: [(place: Int, name: Substring, step: Step)]
        ) -> PlainScenario? {
            guard let stepsLine = shape.stepsLine, let stepIndentation = shape.stepIndentation,
                let keyIndentation = item.keyIndentation, !item.foundLines.isEmpty
            else { return nil }
            var steps: [PlainScenario.Line] = []
            steps.reserveCapacity(item.found.count)
            for ((name, span), ((line, lineStart), (place, written, step))) in zip(
                item.found,
                zip(item.foundLines, places)
            ) {
                steps.append(
                    PlainScenario.Line(
                        name: written,
                        line: line + 1,
                        column: name.lowerBound - lineStart + 1,
                        argumentsColumn: span.lowerBound - lineStart + 1,
                        place: place,
                        step: step
                    )
                )
            }
            return PlainScenario(
                line: shape.line + 1,
                keyColumn: keyIndentation + 1,
                name: String(slice(shape.name)),
                nameColumn: shape.name.lowerBound - shape.lineStart + 1,
                stepsLine: stepsLine + 1,
                stepsColumn: stepIndentation + 1,
                steps: steps
            )
        }

        func finished() -> KnownLines? {
            guard !leftOut.isEmpty else { return nil }
            return KnownLines(
                part: part,
                removed: removed,
                leftOut: leftOut,
                plain: plain?.isEmpty == false ? plain : nil
            )
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
        /// The line (from 0) of each of `found`, and where it starts in the part.
        var foundLines: [(line: Int, start: Int)] = []
        /// Lines scanned into it.
        var lineCount = 0
        /// Its lines so far in the plain shape, or `nil` once one is not.
        var shape: Shape?

        /// The shape nearly every scenario of a suite is written in, which composing makes into nodes
        /// known in advance:
        ///
        /// ```yaml
        ///   - scenario: Posting a review
        ///     steps:
        ///       - stub route: { class: Review, method: POST, to: /review }
        ///       - post object: { class: Review, attributes: { title: Great } }
        /// ```
        ///
        /// The name is plain — a letter or digit, then printable ASCII without `#`, `:` or a tab, its
        /// trailing spaces not part of it; `steps:` is alone on its line, at the key's indentation; every
        /// further line is a step line (``StepLine/argumentsWritten()``) at one deeper indentation, or blank.
        struct Shape {
            /// The item's first line (from 0), and where it starts in the part.
            var line: Int
            var lineStart: Int
            /// The name's bytes.
            var name: Range<Int>
            /// The `steps:` line, once seen.
            var stepsLine: Int?
            /// The step lines' indentation, once one is seen, and how many there are.
            var stepIndentation: Int?
            var stepLines = 0

            /// The shape's start when `line`, the item's first, is `- scenario: NAME`.
            init?(firstLine line: StepLine, at index: Int) {
                let keyColumn = line.contentStart
                guard line.isKey("scenario", at: keyColumn) else { return nil }
                var start = line.range.lowerBound + keyColumn + "scenario".utf8.count
                let bytes = line.bytes
                while start < line.range.upperBound, bytes[start] == UInt8(ascii: " ") { start += 1 }
                // `isKey` found the colon here; the name follows it after at least one space.
                start += 1
                guard start < line.range.upperBound, bytes[start] == UInt8(ascii: " ") else { return nil }
                while start < line.range.upperBound, bytes[start] == UInt8(ascii: " ") { start += 1 }
                var end = line.range.upperBound
                while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
                guard end > start, StepLine.isLetterOrDigit(bytes[start]) else { return nil }
                for byte in bytes[start..<end] {
                    guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "#"), byte != UInt8(ascii: ":") else {
                        return nil
                    }
                }
                self.line = index
                lineStart = line.range.lowerBound
                name = start..<end
            }
        }

        /// Follows the shape with the item's next line (not its first): `steps:`, then step lines (`isStepLine`:
        /// ``StepLine/argumentsWritten()`` found one).
        mutating func followShape(_ line: StepLine, at index: Int, isStepLine: Bool) {
            lineCount += 1
            guard var shape, let keyIndentation else {
                self.shape = nil
                return
            }
            if line.isBlank { return }
            if shape.stepsLine == nil {
                guard line.indentation == keyIndentation, line.isAlone("steps:") else {
                    self.shape = nil
                    return
                }
                shape.stepsLine = index
            } else {
                guard line.indentation > keyIndentation,
                    line.indentation == (shape.stepIndentation ?? line.indentation),
                    isStepLine
                else {
                    self.shape = nil
                    return
                }
                shape.stepIndentation = line.indentation
                shape.stepLines += 1
            }
            self.shape = shape
        }
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

        /// Whether the line is empty or only spaces.
        var isBlank: Bool { indentation == range.count }

        /// Whether the line is `text` after its indentation, then nothing but spaces.
        func isAlone(_ text: StaticString) -> Bool {
            let start = range.lowerBound + indentation
            let count = text.utf8CodeUnitCount
            guard start + count <= range.upperBound else { return false }
            for offset in 0..<count where bytes[start + offset] != text.utf8Start[offset] { return false }
            return bytes[(start + count)..<range.upperBound].allSatisfy { $0 == UInt8(ascii: " ") }
        }

        static func isLetterOrDigit(_ byte: UInt8) -> Bool {
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
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
