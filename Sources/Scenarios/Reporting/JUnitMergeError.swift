package import Diagnostics

/// Why `merge-junit` could not read one of its files; each names the file.
package enum JUnitMergeError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Not well-formed XML: compiler-style, with the line and a caret when the line can be shown.
    case malformed(Diagnostic)
    /// Well-formed, but its root is neither `<testsuites>` nor `<testsuite>`.
    case notJUnit(path: String, root: String)
    /// A count or time attribute that is not a number.
    case notANumber(path: String, suite: String, attribute: String, value: String)
    /// A count or time too large to be true (over ``JUnitMerge/countLimit`` or ``JUnitMerge/timeLimit``).
    case outOfRange(path: String, suite: String, attribute: String, value: String, limit: Double)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "Cannot read '\(path)': \(reason)."
        case .malformed(let diagnostic):
            return diagnostic.description
        case .notJUnit(let path, let root):
            return "'\(path)' is not a JUnit report: its root element is <\(root)>, not <testsuites> or <testsuite>."
        case .notANumber(let path, let suite, let attribute, let value):
            return "'\(path)': testsuite '\(suite)' has \(attribute)=\"\(value)\", which is not a number."
        case .outOfRange(let path, let suite, let attribute, let value, let limit):
            return
                "'\(path)': testsuite '\(suite)' has \(attribute)=\"\(value)\", more than the limit of \(Int(limit).groupedDigits)."
        }
    }
}
