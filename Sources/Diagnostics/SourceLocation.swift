/// A position in a source file, 1-based, as compilers and editors count.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var file: String
    /// Line number starting from 1.
    public var line: Int
    /// Column number starting from 1, counted in Unicode scalars.
    public var column: Int

    /// Makes a location; `line` and `column` count from 1.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE`, the form used next to a failing step.
    public var fileAndLine: String { "\(file):\(line)" }

    /// `FILE:LINE:COL`.
    public var description: String { "\(file):\(line):\(column)" }
}
