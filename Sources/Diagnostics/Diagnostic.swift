/// An error found in a user's file, rendered compiler-style:
///
/// ```
/// Scenarios/reviews.yml:7:9: error: Unknown step 'stub rout'. Did you mean 'stub route'?
///       - stub rout: { class: Review, method: POST, to: /422 }
///         ^
/// ```
///
/// A diagnostic built from a file's ``SourceText`` shares that text and keeps only its line number, so
/// that many errors on one long line cost a few words each, not a copy of the line each; and a line
/// longer than ``shownLineLimit`` characters is printed as a window around the caret.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in a sentence or two (`Unknown step 'stub rout'. Did you mean 'stub route'?`); a
    /// suggestion is worked out here, when read, so that only the diagnostics shown pay for one.
    public var message: String {
        get { text + (suggestion?.text ?? "") }
        set {
            text = newValue
            suggestion = nil
        }
    }
    /// The message without its suggestion.
    private var text: String
    /// The did-you-mean that ends the message, not yet worked out.
    private var suggestion: Suggestion?
    /// The text of the offending line, without its newline; `nil` when the file could not be read.
    public var sourceLine: String? {
        get { line.text }
        set { line = newValue.map(Line.owned) ?? .none }
    }
    private(set) var line: Line

    /// Makes a diagnostic; `sourceLine` is the text of the offending line, `nil` when it is not known.
    public init(location: SourceLocation, message: String, sourceLine: String?) {
        self.location = location
        self.text = message
        self.line = sourceLine.map(Line.owned) ?? .none
    }

    init(location: SourceLocation, message: String, suggestion: Suggestion? = nil, line: Line) {
        self.location = location
        self.text = message
        self.suggestion = suggestion
        self.line = line
    }

    /// How many characters of a source line are printed: a longer line shows this many around the
    /// caret, cut ends marked `…`.
    package static let shownLineLimit = 160

    /// Equal place, line and message; a suggestion not worked out is compared by what it would search.
    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        lhs.location == rhs.location && lhs.text == rhs.text && lhs.suggestion == rhs.suggestion
            && lhs.sourceLine == rhs.sourceLine
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        hasher.combine(text)
        hasher.combine(suggestion)
        hasher.combine(sourceLine)
    }

    /// Builds a diagnostic, taking the offending line from the file's text. Indexes the whole text:
    /// for several diagnostics of one file, build a ``SourceText`` once and pass that.
    public init(_ message: String, at location: SourceLocation, in text: String) {
        self.init(message, at: location, in: SourceText(text))
    }

    /// Where something was written and the text of its line: enough to report a problem found later.
    public struct Source: Sendable, Hashable {
        /// Where it was written.
        public var location: SourceLocation
        /// The text of its line, without its newline; `nil` when it is not known.
        public var sourceLine: String? {
            get { line.text }
            set { line = newValue.map(Line.owned) ?? .none }
        }
        var line: Line

        /// Makes a source from a location and the text of its line.
        public init(location: SourceLocation, sourceLine: String?) {
            self.location = location
            self.line = sourceLine.map(Line.owned) ?? .none
        }

        init(location: SourceLocation, line: Line) {
            self.location = location
            self.line = line
        }

        public static func == (lhs: Source, rhs: Source) -> Bool {
            lhs.location == rhs.location && lhs.sourceLine == rhs.sourceLine
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(location)
            hasher.combine(sourceLine)
        }

        /// The location, with its line taken from the file's text.
        public init(location: SourceLocation, in text: String) {
            self.init(location: location, in: SourceText(text))
        }
    }

    /// A diagnostic at a remembered source.
    public init(_ message: String, at source: Source) {
        self.init(location: source.location, message: message, line: source.line)
    }

    /// `FILE:LINE:COL: error: MESSAGE`, the source line (a window of ``shownLineLimit`` characters
    /// around the column when it is longer), and a caret under the column.
    public var description: String {
        var out = "\(location): error: \(TerminalText.escaped(message))"
        if let sourceLine {
            let (shown, caretColumn) = Self.window(sourceLine, column: location.column)
            out += "\n" + shown + "\n"
            // Keep tabs so the caret lines up whatever the tab width.
            let prefix = shown.unicodeScalars.prefix(max(0, caretColumn - 1))
            out += String(String.UnicodeScalarView(prefix.map { $0 == "\t" ? "\t" : " " })) + "^"
        }
        return out
    }

    /// `line` as printed and the caret's column in it: whole when short, else ``shownLineLimit``
    /// characters around `column` (a third before it), with `…` where it was cut.
    static func window(_ line: String, column: Int) -> (text: String, column: Int) {
        let scalars = line.unicodeScalars
        guard scalars.count > shownLineLimit else { return (line, column) }
        let caret = max(0, column - 1)
        let start = max(0, min(caret - shownLineLimit / 3, scalars.count - shownLineLimit))
        let from = scalars.index(scalars.startIndex, offsetBy: start)
        let to = scalars.index(from, offsetBy: shownLineLimit)
        var text = String(String.UnicodeScalarView(scalars[from..<to]))
        var shownColumn = caret - start + 1
        if start > 0 {
            text = "…" + text
            shownColumn += 1
        }
        if to < scalars.endIndex { text += "…" }
        return (text, shownColumn)
    }

    /// Where a diagnostic's source line comes from: nowhere, its own copy, or a line of a shared
    /// ``SourceText`` (read when printed).
    enum Line: Sendable {
        case none
        case owned(String)
        case indexed(SourceText, Int)

        var text: String? {
            switch self {
            case .none: nil
            case .owned(let text): text
            case .indexed(let source, let number): source.line(number)
            }
        }
    }
}

/// Every diagnostic of a load, in file and line order, so that all errors are shown at once — in
/// text, the first ``shownLimit`` of them and a count of the rest.
package struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    /// How many diagnostics ``description`` shows; the rest are counted in one line.
    package static let shownLimit = 100

    /// The diagnostics, sorted; past ``DiagnosticCollection/keptLimit`` only the first ones (``total``
    /// counts them all).
    package var diagnostics: [Diagnostic]
    /// How many errors there were, those not kept included.
    package var total: Int

    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sorted(by: Self.precedes)
        self.total = diagnostics.count
    }

    /// The kept diagnostics of a collection, and its count.
    package init(_ collection: DiagnosticCollection) {
        self.diagnostics = collection.kept.sorted(by: Self.precedes)
        if diagnostics.count > DiagnosticCollection.keptLimit {
            diagnostics.removeLast(diagnostics.count - DiagnosticCollection.keptLimit)
        }
        self.total = collection.count
    }

    /// File, line and column order.
    package static func precedes(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.location.file, a.location.line, a.location.column) < (b.location.file, b.location.line, b.location.column)
    }

    /// The first ``shownLimit`` diagnostics, then `… and 7,900 more errors` when there are more.
    package var description: String {
        var text = diagnostics.prefix(Self.shownLimit).map(\.description).joined(separator: "\n")
        let hidden = total - Self.shownLimit
        if hidden > 0 {
            text += "\n… and \(hidden.groupedDigits) more error\(hidden == 1 ? "" : "s")"
        }
        return text
    }
}

extension Diagnostic.Source: Codable {
    private enum CodingKeys: String, CodingKey { case location, sourceLine }

    /// Its place and its line's text (a worker process gets the run's settings this way).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            location: try container.decode(SourceLocation.self, forKey: .location),
            sourceLine: try container.decodeIfPresent(String.self, forKey: .sourceLine)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location, forKey: .location)
        try container.encodeIfPresent(sourceLine, forKey: .sourceLine)
    }
}
