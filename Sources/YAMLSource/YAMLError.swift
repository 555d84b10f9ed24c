package import Diagnostics

/// Why a YAML file could not be read or composed, and where (1-based line and column).
package struct YAMLError: Error, Equatable, Sendable {
    /// What is wrong; rendered to text by ``message``, and only there.
    package enum Reason: Equatable, Sendable {
        /// libyaml's scanner or parser: its problem, and the context it was in (with the line that
        /// context started on).
        case syntax(problem: String, context: String?, contextLine: Int?)
        case duplicateKey(String)
        case undefinedAlias(String)
        case severalDocuments
        case tooDeep
        case aliasesTooLarge
        case aliasesTooManyBytes
        case fileTooLarge(bytes: Int)
        case invalidUTF8(byte: UInt8)
        case controlCharacter(UInt32)
        case unreadable
        case notARegularFile
    }

    package var reason: Reason
    package var line: Int
    package var column: Int

    package init(_ reason: Reason, line: Int = 1, column: Int = 1) {
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// The sentence shown after `error:`.
    package var message: String {
        switch reason {
        case .syntax(let problem, let context, let contextLine):
            var text = "Invalid YAML: \(problem)"
            if let context {
                text += " \(context)"
                if let contextLine, contextLine != line { text += " that started on line \(contextLine)" }
            }
            return text + "."
        case .duplicateKey(let key):
            return "Duplicate key '\(key)'."
        case .undefinedAlias(let name):
            return "Unknown alias '*\(name)'; an alias names an anchor ('&\(name)') written before it."
        case .severalDocuments:
            return "A second YAML document; a file holds one document."
        case .tooDeep:
            return "Nesting deeper than \(YAMLLimits.maxDepth) levels."
        case .aliasesTooLarge:
            return "Aliases expand to more than \(YAMLLimits.maxAliasNodes.groupedDigits) nodes."
        case .aliasesTooManyBytes:
            return
                "Aliases expand to more than 16 MiB of text (\(YAMLLimits.maxAliasBytes.groupedDigits) bytes)."
        case .fileTooLarge(let bytes):
            return "File of \(bytes.groupedDigits) bytes is larger than the limit of 64 MB "
                + "(\(YAMLLimits.maxFileBytes.groupedDigits) bytes)."
        case .invalidUTF8(let byte):
            return
                "Invalid UTF-8: byte 0x\(Self.hex(UInt32(byte), digits: 2)) does not start a character; is this a text file?"
        case .controlCharacter(let value):
            return "Control character U+\(Self.hex(value, digits: 4)) is not allowed in YAML; is this a text file?"
        case .unreadable:
            return "Cannot read this file."
        case .notARegularFile:
            return "Not a regular file; a YAML file must be a plain file, not a device, a socket or a pipe."
        }
    }

    /// The error as a diagnostic of `file`, its line taken from `source` when there is one.
    package func diagnostic(file: String, lineOffset: Int = 0, source: SourceText?) -> Diagnostic {
        let location = SourceLocation(file: file, line: line + lineOffset, column: column)
        guard let source else { return Diagnostic(location: location, message: message, sourceLine: nil) }
        return Diagnostic(message, at: location, in: source)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
