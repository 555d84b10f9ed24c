import Foundation
import TestSupport
import Testing

@testable import ScenarioRunCLI

/// `FileWatcher` with inotify replaced where the binary cannot show it: a folder made while watching
/// that inotify will not watch switches the watcher to polling, which says so and sees what follows.
struct FileWatcherTests {
    /// What a watcher delivered so far.
    private final class Batches: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [FileWatcher.Batch] = []
        var all: [FileWatcher.Batch] { lock.withLock { batches } }
        func append(_ batch: FileWatcher.Batch) { lock.withLock { batches.append(batch) } }
    }

    @Test func aFolderInotifyWillNotWatchSwitchesToPollingAndSaysSo() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: fixtures) }
        var inotify = FileWatcher.Inotify.system
        inotify.addWatch = { descriptor, path, mask in
            guard !path.hasSuffix("/more") else {
                errno = ENOSPC
                return -1
            }
            return FileWatcher.Inotify.system.addWatch(descriptor, path, mask)
        }
        let watcher = FileWatcher(files: [], folders: [fixtures.path], inotify: inotify)
        #expect(!watcher.polls)
        let batches = Batches()
        let reading = Task { for await batch in watcher.changes { batches.append(batch) } }
        defer {
            watcher.stop()
            reading.cancel()
        }
        let more = fixtures.appendingPathComponent("more")
        try FileManager.default.createDirectory(at: more, withIntermediateDirectories: false)
        let note =
            "Watching by polling every 0.3 s from now on: inotify could not watch '\(more.path)' "
            + "(the limit of inotify watches is reached: fs.inotify.max_user_watches)."
        #expect(await eventually(timeout: .seconds(30)) { batches.all.contains { $0.note == note } }, "\(batches.all)")
        let file = more.appendingPathComponent("x.json")
        try "{}".write(to: file, atomically: true, encoding: .utf8)
        #expect(
            await eventually(timeout: .seconds(30)) { batches.all.contains { $0.paths.contains(file.path) } },
            "\(batches.all)"
        )
    }

    @Test(arguments: [
        ("#server.yml#", true), (".#server.yml", true), (".server.yml.swp", true), ("server.yml~", true),
        ("4913", true), ("server.yml.swp", true), ("review.json.tmp", true), ("server.yml___jb_tmp___", true),
        ("server.yml", false), ("review.json", false), ("4914", false), ("a#b.json", false),
    ])
    func editorsTemporaryFiles(name: String, temporary: Bool) {
        #expect(FileWatcher.isEditorTemporary(name) == temporary)
    }
}
