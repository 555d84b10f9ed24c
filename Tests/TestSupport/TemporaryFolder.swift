public import Foundation

/// A fresh folder under the temporary directory, removed when released: a test's files never outlive it.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    /// - Parameter prefix: the start of the folder's name, saying which tests made it.
    public init(_ prefix: String = "scenario-run-tests") throws {
        url = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` at `path` (relative, may contain folders) and returns its URL.
    @discardableResult
    public func write(_ contents: String, to path: String) throws -> URL {
        let file = url.appending(path: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        return file
    }

    /// Makes a subfolder and returns its URL.
    public func folder(_ path: String) throws -> URL {
        let folder = url.appending(path: path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// One folder per test process for what must outlive a test's own scope — a scratch project, a
    /// browser's profile, a server's fixtures — removed when the process exits (a full `swift test` makes
    /// a few hundred).
    public static let processScratch: URL = {
        let root = FileManager.default.temporaryDirectory.appending(path: "scenario-run-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TemporaryFolder.processScratch) }
        return root
    }()
}
