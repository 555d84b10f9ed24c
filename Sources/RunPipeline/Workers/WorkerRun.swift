package import Foundation
package import Scenarios

/// What a worker process runs, resolved once by the parent: the scenario paths and the run's settings —
/// `scenario-run.yml`, the environment and every option already merged — and the worker's place on the
/// parent's board, sent as the first line of the worker's channel (JSON). A worker parses no option and
/// merges no setting of its own (its command line is the one word ``WorkerMain/command``), so an option
/// added to the run reaches every worker with no second list to keep.
///
/// ```swift
/// let line = try WorkerRun(paths: ["Scenarios"], settings: settings, liveEvents: false).line()
/// let (run, rest) = try WorkerRun.read(from: channel)   // in the worker
/// ```
package struct WorkerRun: Codable, Sendable, Equatable {
    /// The scenario paths as the user gave them (`PATH:LINE` included).
    package var paths: [String]
    package var settings: RunSettings
    /// Whether every event is sent as it happens, step starts included (the live runner, `--events`).
    package var liveEvents: Bool
    /// The parent's ``ProgressBoard`` (a path the worker opens), and the worker's slot on it: where it
    /// says which scenario and step it runs. `nil` when the parent has no board.
    package var board: String?
    package var slot: Int
    /// The folder the run reads from (the parent's, after `--project`): a worker started before the
    /// parent entered it (``WorkerLaunchpad``) enters it first.
    package var directory: String

    /// The most a run's line may take (its settings are a few hundred bytes; paths are the rest).
    static let lineLimit = 16 * 1024 * 1024

    package init(
        paths: [String],
        settings: RunSettings,
        liveEvents: Bool,
        board: String? = nil,
        slot: Int = 0,
        directory: String = FileManager.default.currentDirectoryPath
    ) {
        self.directory = directory
        self.paths = paths
        self.settings = settings
        self.liveEvents = liveEvents
        self.board = board
        self.slot = slot
    }

    /// The run as one line of JSON, ending in a newline.
    package func line() throws -> Data {
        var data = try JSONEncoder().encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads the run's line from the channel; returns the run and what was read past its line.
    package static func read(from channel: Int32) throws(WorkerRunError) -> (WorkerRun, Data) {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                do {
                    return (try JSONDecoder().decode(WorkerRun.self, from: Data(line)), Data(buffer[(newline + 1)...]))
                } catch {
                    throw WorkerRunError(reason: "its run could not be read (\(error))")
                }
            }
            guard buffer.count <= lineLimit else { throw WorkerRunError(reason: "its run's line is over 16 MiB") }
            let count = chunk.withUnsafeMutableBytes { Foundation.read(channel, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw WorkerRunError(reason: "the parent sent no run") }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}

/// Why a worker could not read the run its parent sent.
package struct WorkerRunError: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { "The worker cannot start: \(reason)." }
}
