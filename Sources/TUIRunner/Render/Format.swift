/// Text formatting for the renderer: durations, truncation and wrapping.
enum Format {
    /// `12 ms`, `1.25 s`, `1:02` — compact durations for the tree and the steps.
    static func short(_ duration: Duration) -> String {
        let parts = duration.components
        let milliseconds = parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 {
            let hundredths = milliseconds / 10
            let fraction = hundredths % 100
            return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
        }
        return clock(duration)
    }

    /// `m:ss` for the elapsed time of a run.
    static func clock(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        let rest = seconds % 60
        return "\(seconds / 60):\(rest < 10 ? "0" : "")\(rest)"
    }

    /// `text` cut to `width` columns, ending with `ellipsis` when cut.
    static func truncate(_ text: String, to width: Int, ellipsis: String) -> String {
        guard width > 0 else { return "" }
        guard text.count > width else { return text }
        guard width > ellipsis.count else { return String(text.prefix(width)) }
        return String(text.prefix(width - ellipsis.count)) + ellipsis
    }

    /// `text` broken into lines of at most `width` columns, at spaces when possible.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = Substring(word)
                while word.count > width {
                    if !line.isEmpty {
                        lines.append(line)
                        line = ""
                    }
                    lines.append(String(word.prefix(width)))
                    word = word.dropFirst(width)
                }
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
