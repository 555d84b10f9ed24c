import Foundation
import Testing

/// Compares text with a file next to the tests; `RECORD_SNAPSHOTS=1` re-records instead.
enum Snapshot {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// The expected text in `relativePath`, or `nil` (recording it) when recording.
    static func expect(
        _ actual: String,
        matches relativePath: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = testsDirectory.appendingPathComponent(relativePath)
        if recording {
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = (try? String(contentsOf: url, encoding: .utf8))
        #expect(expected != nil, "Missing snapshot \(relativePath)", sourceLocation: sourceLocation)
        #expect(actual == expected, sourceLocation: sourceLocation)
    }
}
