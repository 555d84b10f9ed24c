import Diagnostics

/// Why a selection could not be made; each a usage error (exit status 2).
package enum ScenarioSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidFilter(String)
    /// A `PATH:LINE` before the file's first scenario; `starts` are the lines its scenarios start at.
    case noScenarioAtLine(path: String, line: Int, starts: [Int])
    /// A `--tag` expression names a tag no loaded scenario has (`expression` as `--tag` wrote it out).
    case unknownTag(String, expression: String, loaded: Int, known: Set<String>)

    package var description: String {
        switch self {
        case .invalidFilter(let pattern):
            return "Invalid filter '\(pattern)': not a regular expression."
        case .noScenarioAtLine(let path, let line, let starts):
            guard !starts.isEmpty else { return "No scenario at \(path):\(line); the file has no scenarios." }
            let lines = starts.prefix(12).map(String.init).joined(separator: ", ")
            return "No scenario at \(path):\(line); its scenarios start at line\(starts.count == 1 ? "" : "s") \(lines)"
                + (starts.count > 12 ? " and \(starts.count - 12) more." : ".")
        case .unknownTag(let tag, let expression, let loaded, let known):
            let criterion = "--tag " + (expression == "@\(tag)" ? expression : "'\(expression)'")
            let head = "No scenario matches \(criterion) (\(loaded.groupedDigits) loaded)"
            let reason = expression == "@\(tag)" ? "." : ": no scenario has the tag @\(tag)."
            return head + reason + Self.suggestion(forTag: tag, known: known)
        }
    }

    /// ` Did you mean @smoke?`, or the known tags when none is near.
    static func suggestion(forTag tag: String, known: Set<String>) -> String {
        let near = Suggestions.nearest(to: tag, in: known)
        if !near.isEmpty { return " Did you mean " + near.map { "@\($0)" }.joined(separator: " or ") + "?" }
        guard !known.isEmpty else { return " No loaded scenario has tags." }
        let sorted = known.sorted()
        return " Known tags: " + sorted.prefix(12).map { "@\($0)" }.joined(separator: ", ")
            + (sorted.count > 12 ? " and \(sorted.count - 12) more." : ".")
    }
}
