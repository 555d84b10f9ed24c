import Foundation
import Glibc
import Synchronization

/// Watches files and folders for `--watch`: every change to a watched file, and every file created,
/// changed or removed in a watched folder (folders with their subfolders), delivered as batches of
/// absolute paths once saving has paused for ``debounce`` — an editor's save (write a temporary file,
/// rename it over) and a burst of saves are one batch.
///
/// Uses inotify, watching the folders that hold the files (a file replaced by a rename is a new inode, so
/// a watch on the file itself would go quiet); where inotify cannot be had (`SCENARIO_RUN_WATCH_POLL=1`,
/// some containers and network file systems) it compares each file's size, modification time and inode
/// every ``pollInterval``.
///
/// ```swift
/// let watcher = FileWatcher(files: ["Scenarios/reviews.yml"], folders: ["Fixtures"])
/// for await changed in watcher.changes { print(changed) }   // ["/project/Scenarios/reviews.yml"]
/// ```
final class FileWatcher: Sendable {
    /// Quiet time after the last change before a batch is delivered.
    static let debounce: Duration = .milliseconds(200)
    /// How often the polling fallback looks.
    static let pollInterval: Duration = .milliseconds(300)

    /// Batches of changed paths (absolute, standardized).
    let changes: AsyncStream<Set<String>>
    /// Whether changes are found by polling instead of inotify.
    let polls: Bool
    private let continuation: AsyncStream<Set<String>>.Continuation
    private let stopped = Mutex(false)
    /// The files watched by name, and the folders watched whole.
    private let files: Set<String>
    private let folders: [String]

    init(files: [String], folders: [String], forcePolling: Bool = false) {
        self.files = Set(files.map(Self.absolute))
        self.folders = folders.map(Self.absolute)
        (changes, continuation) = AsyncStream.makeStream(of: Set<String>.self, bufferingPolicy: .unbounded)
        let descriptor = forcePolling ? -1 : inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        polls = descriptor < 0
        // Watching starts before `init` returns: a change right after is never missed.
        let thread: Thread
        if polls {
            let known = Self.snapshot(files: self.files, folders: self.folders)
            thread = Thread { [self] in poll(from: known) }
        } else {
            let watches = Self.addWatches(descriptor, files: self.files, folders: self.folders)
            thread = Thread { [self] in follow(descriptor, watches: watches) }
        }
        thread.name = "scenario-run watch"
        thread.start()
    }

    /// Stops watching; the stream ends.
    func stop() {
        stopped.withLock { $0 = true }
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Whether a changed path is one this watcher cares about: a watched file, or anything in a watched
    /// folder but hidden and editor files (`.x.swp`, `x~`, `4913`).
    private func concerns(_ path: String) -> Bool {
        if files.contains(path) { return true }
        let name = (path as NSString).lastPathComponent
        guard !name.hasPrefix("."), !name.hasSuffix("~"), name != "4913" else { return false }
        return folders.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    // MARK: inotify

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    /// Watches the folders of the watched files, and every watched folder with its subfolders; returns
    /// each watch's folder.
    private static func addWatches(_ descriptor: Int32, files: Set<String>, folders: [String]) -> [Int32: String] {
        var folderOf: [Int32: String] = [:]
        func add(_ folder: String) {
            let watch = inotify_add_watch(descriptor, folder, mask)
            if watch >= 0 { folderOf[watch] = folder }
        }
        for folder in Set(files.map { ($0 as NSString).deletingLastPathComponent }) { add(folder) }
        for folder in folders {
            add(folder)
            for sub in subfolders(of: folder) { add(sub) }
        }
        return folderOf
    }

    private func follow(_ descriptor: Int32, watches: [Int32: String]) {
        defer { close(descriptor) }
        var folderOf = watches
        func add(_ folder: String) {
            let watch = inotify_add_watch(descriptor, folder, Self.mask)
            if watch >= 0 { folderOf[watch] = folder }
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pending: Set<String> = []
        var lastChange = ContinuousClock.now
        while !isStopped {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&waiting, 1, 50)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                var offset = 0
                while count > 0, offset + 16 <= count {
                    let (watch, flags, length) = buffer.withUnsafeBytes { bytes in
                        (
                            bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        )
                    }
                    let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    offset += 16 + length
                    guard let folder = folderOf[watch] else { continue }
                    let path = folder + "/" + String(decoding: nameBytes, as: UTF8.self)
                    if flags & UInt32(IN_ISDIR) != 0, flags & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                        folders.contains(where: { path.hasPrefix($0 + "/") })
                    {
                        add(path)
                    }
                    if concerns(path) {
                        pending.insert(path)
                        lastChange = .now
                    }
                }
            }
            if !pending.isEmpty, ContinuousClock.now - lastChange >= Self.debounce {
                continuation.yield(pending)
                pending = []
            }
        }
        continuation.finish()
    }

    // MARK: Polling

    /// What polling compares: size, modification time and inode.
    private struct Stamp: Equatable {
        var size: Int64
        var modified: timespec
        var inode: UInt64

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.inode == b.inode
        }
    }

    private func poll(from snapshot: [String: Stamp]) {
        var known = snapshot
        var pending: Set<String> = []
        var lastChange = ContinuousClock.now
        while !isStopped {
            let (seconds, attoseconds) = Self.pollInterval.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            let now = Self.snapshot(files: files, folders: folders)
            for path in Set(known.keys).union(now.keys) where known[path] != now[path] {
                pending.insert(path)
                lastChange = .now
            }
            known = now
            if !pending.isEmpty, ContinuousClock.now - lastChange >= Self.debounce {
                continuation.yield(pending)
                pending = []
            }
        }
        continuation.finish()
    }

    private static func snapshot(files: Set<String>, folders: [String]) -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        func look(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return }
            stamps[path] = Stamp(size: Int64(info.st_size), modified: info.st_mtim, inode: UInt64(info.st_ino))
        }
        for file in files { look(file) }
        for folder in folders {
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let name = enumerator?.nextObject() as? String {
                let path = folder + "/" + name
                let name = (path as NSString).lastPathComponent
                if !name.hasPrefix("."), !name.hasSuffix("~") { look(path) }
            }
        }
        return stamps
    }

    private static func subfolders(of folder: String) -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                found.append(path)
            }
        }
        return found
    }
}
