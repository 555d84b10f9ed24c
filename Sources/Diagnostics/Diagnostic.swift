/// An error found in a user's file, rendered compiler-style:
///
/// ```
/// Scenarios/reviews.yml:7:9: error: Unknown step 'stub rout'. Did you mean 'stub route'?
///       - stub rout: { class: Review, method: POST, to: /422 }
///         ^
/// ```
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    /// The text of the offending line, without its newline; `nil` when the file could not be read.
    public var sourceLine: String?

    public init(location: SourceLocation, message: String, sourceLine: String?) {
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    /// Builds a diagnostic, taking the offending line from the file's text. Indexes the whole text:
    /// for several diagnostics of one file, build a ``SourceText`` once and pass that.
    public init(_ message: String, at location: SourceLocation, in text: String) {
        self.init(message, at: location, in: SourceText(text))
    }

    /// Where something was written and the text of its line: enough to report a problem found later.
    public struct Source: Sendable, Hashable {
        public var location: SourceLocation
        public var sourceLine: String?

        public init(location: SourceLocation, sourceLine: String?) {
            self.location = location
            self.sourceLine = sourceLine
        }

        /// The location, with its line taken from the file's text.
        public init(location: SourceLocation, in text: String) {
            self.init(location: location, in: SourceText(text))
        }
    }

    /// A diagnostic at a remembered source.
    public init(_ message: String, at source: Source) {
        self.init(location: source.location, message: message, sourceLine: source.sourceLine)
    }

    /// `FILE:LINE:COL: error: MESSAGE`, the source line, and a caret under the column.
    public var description: String {
        var out = "\(location): error: \(message)"
        if let sourceLine {
            out += "\n" + sourceLine + "\n"
            // Keep tabs so the caret lines up whatever the tab width.
            let prefix = sourceLine.unicodeScalars.prefix(max(0, location.column - 1))
            out += String(String.UnicodeScalarView(prefix.map { $0 == "\t" ? "\t" : " " })) + "^"
        }
        return out
    }
}

/// Every diagnostic of a load, in file and line order, so that all errors are shown at once — in
/// text, the first ``shownLimit`` of them and a count of the rest.
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    /// How many diagnostics ``description`` shows; the rest are counted in one line.
    package static let shownLimit = 100

    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sorted {
            ($0.location.file, $0.location.line, $0.location.column)
                < ($1.location.file, $1.location.line, $1.location.column)
        }
    }

    /// The first ``shownLimit`` diagnostics, then `… and 7,900 more errors` when there are more.
    public var description: String {
        var text = diagnostics.prefix(Self.shownLimit).map(\.description).joined(separator: "\n")
        let hidden = diagnostics.count - Self.shownLimit
        if hidden > 0 {
            text += "\n… and \(hidden.groupedDigits) more error\(hidden == 1 ? "" : "s")"
        }
        return text
    }
}
