/// Splitting and percent-decoding of raw request paths.
package enum RequestPath {
    /// The raw path and the raw query (without `?`) of a request target.
    package static func split(target: String) -> (path: String, query: String?) {
        guard let mark = target.firstIndex(ascii: UInt8(ascii: "?")) else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }

    /// The percent-decoded, non-empty segments of a raw path, or `nil` when a segment does not decode.
    package static func decodedSegments(of path: String) -> [String]? {
        var segments: [String] = []
        for raw in path.split(ascii: UInt8(ascii: "/")) {
            guard let decoded = decoded(raw) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// A segment percent-decoded, or `nil` when it does not decode; most have nothing to decode.
    private static func decoded(_ raw: Substring) -> String? {
        raw.utf8.contains(UInt8(ascii: "%")) ? String(raw).removingPercentEncoding : String(raw)
    }

    /// The segments of a path that may name a file under a folder, or `nil` when the path could leave the
    /// folder or is not a plain relative file path: empty segments (absolute paths such as `//etc/passwd`),
    /// `.` and `..` (also percent-encoded), encoded separators and NUL bytes.
    package static func safeSegments(of path: String, leadingSlash: Bool) -> [String]? {
        var rest = Substring(path)
        if leadingSlash {
            guard rest.hasPrefix("/") else { return nil }
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var segments: [String] = []
        for raw in rest.split(ascii: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let decoded = decoded(raw),
                !decoded.isEmpty, decoded != ".", decoded != "..",
                !decoded.contains("/"), !decoded.contains("\\"), !decoded.contains("\0")
            else { return nil }
            segments.append(decoded)
        }
        return segments
    }
}
