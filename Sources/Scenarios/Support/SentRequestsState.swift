package import Foundation
import SharedValues

/// The requests the last run's scenarios sent (method and path), kept in `.scenario-run/last-requests.json`
/// so that `check --openapi` can say which of the API's operations no scenario exercised.
///
/// ```swift
/// let state = SentRequestsState(projectDirectory: directory)
/// try state.save(SentRequestsState.Run(finished: Date(), scenarios: 40, requests: sent, dropped: 0))
/// let last = try state.load()   // nil before the first run
/// ```
///
/// Bounded: a run keeps at most ``limit`` distinct requests (``Run/dropped`` counts the rest), and a file
/// over ``fileLimit`` bytes is refused unread.
package struct SentRequestsState: Sendable {
    /// The distinct requests a run keeps.
    package static let limit = 10_000
    /// The largest file read.
    package static let fileLimit = 8 << 20

    /// What one run sent.
    package struct Run: Codable, Equatable, Sendable {
        /// When the run ended.
        package var finished: Date
        /// How many scenarios ran (passed or failed).
        package var scenarios: Int
        /// The distinct requests, in the order first seen.
        package var requests: [SentRequest]
        /// Distinct requests beyond ``SentRequestsState/limit``, not kept.
        package var dropped: Int

        package init(finished: Date, scenarios: Int, requests: [SentRequest], dropped: Int) {
            self.finished = finished
            self.scenarios = scenarios
            self.requests = requests
            self.dropped = dropped
        }
    }

    /// The `last-requests.json` file.
    package var url: URL

    /// The state kept under `directory/.scenario-run/`.
    package init(projectDirectory directory: URL) {
        self.url = directory.appendingPathComponent(".scenario-run").appendingPathComponent("last-requests.json")
    }

    /// What the file holds, for ``StateFolder/UnreadableFile``.
    static let form = "the requests the last run sent"

    /// The last run's requests; `nil` when no run wrote the file yet.
    package func load() throws(StateFolder.UnreadableFile) -> Run? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
        guard size <= Self.fileLimit else {
            throw StateFolder.UnreadableFile(
                path: url.path,
                reason: "it is over \(Self.fileLimit >> 20) MiB",
                form: Self.form
            )
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(Run.self, from: Data(contentsOf: url))
        } catch {
            throw StateFolder.UnreadableFile(
                path: url.path,
                reason: "it is not the JSON scenario-run writes",
                form: Self.form
            )
        }
    }

    /// Replaces the file with `run`, atomically.
    package func save(_ run: Run) throws {
        try StateFolder.make(for: url)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = UTCTimestamp.encodingStrategy
        try encoder.encode(run).write(to: url, options: .atomic)
    }
}
