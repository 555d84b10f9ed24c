import Foundation
import Glibc
import Synchronization

/// Watches files and folders for `--watch`: every change to a watched file (through a symbolic link, its
/// target's too), and every file created, changed or removed in a watched folder (folders with their
/// subfolders), delivered as batches of absolute paths once saving has paused for ``debounce`` — an
/// editor's save (write a temporary file, rename it over) and a burst of saves are one batch. Editors'
/// temporary files (``isEditorTemporary(_:)``) are not changes.
///
/// Uses inotify, watching the folders that hold the files (a file replaced by a rename is a new inode, so
/// a watch on the file itself would go quiet). Where inotify cannot be had — `SCENARIO_RUN_WATCH_POLL=1`,
/// no inotify (some containers and network file systems), or a watch it will not add (its limit reached)
/// — it compares each file's size, modification time and inode every ``pollInterval``, and says why.
/// When inotify drops events (its queue overflowed: a `git checkout` of many files), every watched file
/// is compared with what it was at the last batch, and the batch says so.
///
/// ```swift
/// let watcher = FileWatcher(files: ["Scenarios/reviews.yml"], folders: ["Fixtures"])
/// for await batch in watcher.changes { print(batch.paths) }   // ["/project/Scenarios/reviews.yml"]
/// ```
final class FileWatcher: Sendable {
    /// Quiet time after the last change before a batch is delivered.
    static let debounce: Duration = .milliseconds(200)
    /// How often the polling fallback looks.
    static let pollInterval: Duration = .milliseconds(300)

    /// Changed files, and what the watcher has to say about how it watches (it fell back to polling, or
    /// compared every file again).
    struct Batch: Sendable, Equatable {
        /// Absolute, standardized paths; a file reached through a link by the link's path.
        var paths: Set<String>
        /// One line for people, or `nil`.
        var note: String?
    }

    /// The calls made to inotify: the system's, or a test's (``fromEnvironment(_:)``).
    struct Inotify: Sendable {
        var initialize: @Sendable () -> Int32
        /// `inotify_add_watch`: a watch descriptor, or -1 with `errno` set.
        var addWatch: @Sendable (Int32, String, UInt32) -> Int32
        /// Reads the first batch of events as an overflow of the queue instead (tests).
        var overflowsFirst = false

        static let system = Inotify(
            initialize: { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) },
            addWatch: { inotify_add_watch($0, $1, $2) }
        )

        /// The system's, unless `SCENARIO_RUN_WATCH_TEST_FAULT` asks for a fault no test could provoke
        /// without root: `watch-limit=N` (adding a watch fails with ENOSPC after N), `overflow` (the first
        /// events read are an overflow of the queue).
        static func fromEnvironment(_ environment: [String: String]) -> Inotify {
            guard let fault = environment["SCENARIO_RUN_WATCH_TEST_FAULT"] else { return .system }
            if fault == "overflow" {
                var inotify = Inotify.system
                inotify.overflowsFirst = true
                return inotify
            }
            guard fault.hasPrefix("watch-limit="), let limit = Int(fault.dropFirst("watch-limit=".count)) else {
                return .system
            }
            let added = Atomic(0)
            return Inotify(
                initialize: Inotify.system.initialize,
                addWatch: { descriptor, path, mask in
                    guard added.add(1, ordering: .relaxed).newValue <= limit else {
                        errno = ENOSPC
                        return -1
                    }
                    return inotify_add_watch(descriptor, path, mask)
                }
            )
        }
    }

    /// Batches of changed paths.
    let changes: AsyncStream<Batch>
    /// Whether changes are found by polling instead of inotify (at the start).
    let polls: Bool
    /// Why it polls when it was not asked to: `inotify could not watch 'Fixtures' (…)`.
    let pollingReason: String?
    private let continuation: AsyncStream<Batch>.Continuation
    private let stopped = Mutex(false)
    /// The files watched by name, and the folders watched whole.
    private let files: Set<String>
    private let folders: [String]
    private let inotify: Inotify

    init(files: [String], folders: [String], forcePolling: Bool = false, inotify: Inotify = .system) {
        self.files = Set(files.map(Self.absolute))
        self.folders = folders.map(Self.absolute)
        self.inotify = inotify
        (changes, continuation) = AsyncStream.makeStream(of: Batch.self, bufferingPolicy: .unbounded)
        // Watching starts before `init` returns: a change right after is never missed.
        let known = Self.snapshot(files: self.files, folders: self.folders)
        var reason: String?
        var watches: Watches?
        if !forcePolling {
            let descriptor = inotify.initialize()
            if descriptor < 0 {
                reason = "inotify is not available (\(Self.describe(errno, initializing: true)))"
            } else {
                var added = Watches(descriptor: descriptor)
                if let failed = added.addAll(files: self.files, folders: self.folders, inotify) {
                    close(descriptor)
                    reason = failed
                } else {
                    watches = added
                }
            }
        }
        polls = watches == nil
        pollingReason = reason
        let thread = Thread { [self, watches] in
            if var watches { follow(&watches, known: known) } else { poll(from: known) }
            continuation.finish()
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

    /// `Watching by polling every 0.3 s: …` — the line that says the watcher fell back to polling.
    static func pollingNote(_ reason: String, fromNow: Bool = false) -> String {
        "Watching by polling every \(pollInterval.shortSeconds) s\(fromNow ? " from now on" : ""): \(reason)."
    }

    /// Whether a file name is an editor's temporary or backup file, never a scenario file or a fixture:
    /// hidden (`.reviews.yml.swp`, Emacs' `.#reviews.yml`), `reviews.yml~`, Emacs' `#reviews.yml#`, Vim's
    /// write test `4913`, `*.swp`/`*.swx`, JetBrains' `*___jb_tmp___`/`*___jb_old___`, `*.tmp`.
    static func isEditorTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") || (name.hasPrefix("#") && name.hasSuffix("#")) { return true }
        if name == "4913" { return true }
        return [".swp", ".swx", ".tmp", "___jb_tmp___", "___jb_old___"].contains { name.hasSuffix($0) }
    }

    /// The watched path a changed path stands for — a watched file, one reached through a link (by the
    /// link's path), or a file in a watched folder but editors' temporaries — or `nil`.
    private func concerned(_ path: String, links: [String: String]) -> String? {
        if files.contains(path) { return path }
        if let link = links[path] { return link }
        guard !Self.isEditorTemporary((path as NSString).lastPathComponent) else { return nil }
        return folders.contains { path == $0 || path.hasPrefix($0 + "/") } ? path : nil
    }

    // MARK: inotify

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    /// The watches of one inotify descriptor: each watch's folder, and the links among the watched files
    /// (target path → link path).
    private struct Watches {
        let descriptor: Int32
        var folderOf: [Int32: String] = [:]
        var links: [String: String] = [:]

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// Watches `folder`; why not, in words, when inotify will not.
        mutating func add(_ folder: String, _ inotify: Inotify) -> String? {
            let watch = inotify.addWatch(descriptor, folder, FileWatcher.mask)
            guard watch >= 0 else {
                // A folder gone since it was listed is no reason to poll.
                if errno == ENOENT || errno == ENOTDIR { return nil }
                return "inotify could not watch '\(FileWatcher.shown(folder))' (\(FileWatcher.describe(errno)))"
            }
            folderOf[watch] = folder
            return nil
        }

        /// Watches the folders of the watched files and of their links' targets, and every watched folder
        /// with its subfolders (again after an overflow: a watch already there is kept); the first
        /// failure, if any.
        mutating func addAll(files: Set<String>, folders: [String], _ inotify: Inotify) -> String? {
            links = FileWatcher.linkTargets(of: files)
            let parents = Set((Array(files) + Array(links.keys)).map { ($0 as NSString).deletingLastPathComponent })
            for folder in parents.sorted() {
                if let failure = add(folder, inotify) { return failure }
            }
            for folder in folders {
                for each in [folder] + FileWatcher.subfolders(of: folder) {
                    if let failure = add(each, inotify) { return failure }
                }
            }
            return nil
        }
    }

    /// What to do after reading: go on, or go on by polling (why).
    private enum Next {
        case follow
        case poll(String)
    }

    private func follow(_ watches: inout Watches, known start: [String: Stamp]) {
        defer { close(watches.descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var known = start
        var pending: Set<String> = []
        var note: String?
        var lastChange = ContinuousClock.now
        var overflowsNext = inotify.overflowsFirst
        /// The last batch came of an overflow: the next one keeps only files that differ from what they
        /// were then — a late event of the burst (a save's rename read after the comparison and after
        /// saving paused) is not a second change.
        var afterOverflow = false
        while !isStopped {
            var waiting = pollfd(fd: watches.descriptor, events: Int16(POLLIN), revents: 0)
            var next = Next.follow
            var overflowed = false
            if Glibc.poll(&waiting, 1, 50) > 0 {
                let count = buffer.withUnsafeMutableBytes { read(watches.descriptor, $0.baseAddress, $0.count) }
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
                    if flags & UInt32(IN_Q_OVERFLOW) != 0 || overflowsNext {
                        overflowed = true
                        continue
                    }
                    if flags & UInt32(IN_IGNORED) != 0 {
                        watches.folderOf[watch] = nil
                        continue
                    }
                    guard let folder = watches.folderOf[watch] else { continue }
                    let path = folder + "/" + String(decoding: nameBytes, as: UTF8.self)
                    if flags & UInt32(IN_ISDIR) != 0, flags & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                        folders.contains(where: { path.hasPrefix($0 + "/") })
                    {
                        for each in [path] + Self.subfolders(of: path) {
                            if let failure = watches.add(each, inotify) { next = .poll(failure) }
                        }
                    }
                    if let changed = concerned(path, links: watches.links) {
                        pending.insert(changed)
                        lastChange = .now
                    }
                }
                overflowsNext = false
            }
            if overflowed {
                // Events were dropped: what changed is found by comparing every file, and watches are added
                // to folders made meanwhile.
                if let failure = watches.addAll(files: files, folders: folders, inotify) { next = .poll(failure) }
                pending.formUnion(changed(since: known))
                note = "inotify lost events (its queue overflowed): every watched file was compared again."
                // An overflow comes of a burst, and the burst's later events are still coming (a save's
                // rename read after the comparison): they join this batch once saving has paused, instead
                // of starting a second run of the same change.
                lastChange = .now
            }
            if case .poll(let reason) = next {
                pending.formUnion(changed(since: known))
                continuation.yield(Batch(paths: pending, note: Self.pollingNote(reason, fromNow: true)))
                poll(from: Self.snapshot(files: files, folders: folders))
                return
            }
            if !pending.isEmpty || note != nil, ContinuousClock.now - lastChange >= Self.debounce {
                if afterOverflow, note == nil {
                    afterOverflow = false
                    pending.formIntersection(changed(since: known))
                    if pending.isEmpty { continue }
                }
                afterOverflow = note != nil  // the note is the overflow's
                continuation.yield(Batch(paths: pending, note: note))
                pending = []
                note = nil
                known = Self.snapshot(files: files, folders: folders)
                // A link may point elsewhere now.
                let links = Self.linkTargets(of: files)
                if links != watches.links {
                    if let failure = watches.addAll(files: files, folders: folders, inotify) {
                        continuation.yield(Batch(paths: [], note: Self.pollingNote(failure, fromNow: true)))
                        poll(from: known)
                        return
                    }
                }
            }
        }
    }

    /// The watched paths whose size, modification time or inode differ from `known`, or that came or went.
    private func changed(since known: [String: Stamp]) -> Set<String> {
        let now = Self.snapshot(files: files, folders: folders)
        return Set(Set(known.keys).union(now.keys).filter { known[$0] != now[$0] })
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
                continuation.yield(Batch(paths: pending))
                pending = []
            }
        }
    }

    /// Each watched file's and each watched folder's file's stamp (links followed), by the path watched.
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
                if !isEditorTemporary((path as NSString).lastPathComponent) { look(path) }
            }
        }
        return stamps
    }

    // MARK: Paths

    /// The real path of each watched file that is reached through a symbolic link (its own or a folder's
    /// on the way), mapped to the watched path.
    private static func linkTargets(of files: Set<String>) -> [String: String] {
        var targets: [String: String] = [:]
        for file in files {
            guard let resolved = realpath(file, nil) else { continue }
            defer { free(resolved) }
            let target = String(cString: resolved)
            if target != file { targets[target] = file }
        }
        return targets
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

    /// A path as people read it: relative to the current folder when inside it.
    private static func shown(_ path: String) -> String {
        let current = absolute(FileManager.default.currentDirectoryPath)
        return path.hasPrefix(current + "/") ? String(path.dropFirst(current.count + 1)) : path
    }

    /// Why inotify failed, in words: its limits by their names (`ENOSPC` is not a full disk here).
    private static func describe(_ error: Int32, initializing: Bool = false) -> String {
        switch error {
        case ENOSPC: "the limit of inotify watches is reached: fs.inotify.max_user_watches"
        case EMFILE where initializing: "the limit of inotify instances is reached: fs.inotify.max_user_instances"
        default: String(cString: strerror(error))
        }
    }
}
