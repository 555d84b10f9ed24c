import Foundation
import Synchronization

/// A small file both sides map into memory, one slot per worker process: which scenario the worker is
/// running, its step, and since when. The worker writes it at every scenario and step start (a few
/// stores, no system call); the parent reads it when a worker dies — to name the scenario and step a
/// crash interrupted, which the worker's buffered event lines may not have said yet — and to end a
/// scenario that runs past `--scenario-timeout`.
///
/// ```swift
/// let board = try ProgressBoard(creatingSlots: 2)          // parent
/// let mine = try ProgressBoard(path: board.path, slot: 1)   // worker 1
/// mine.started(scenario: 7); mine.started(step: 3)
/// board.running(in: 1)   // (scenario: 7, step: 3, since: …)
/// ```
final class ProgressBoard: @unchecked Sendable {  // the mapping is written by one process, read by another
    /// What a slot holds: the scenario's index into the worker's loaded list (−1 when none), the step's
    /// index, when the scenario started (CLOCK_MONOTONIC nanoseconds, the same clock in every process),
    /// and whether a step of it failed.
    private static let fieldsPerSlot = 4
    private static let slotBytes = fieldsPerSlot * MemoryLayout<Int64>.stride

    let path: String
    private let base: UnsafeMutableRawPointer
    private let size: Int
    /// The slot this process writes (a worker), or `nil` (the parent, which reads every slot).
    private let slot: Int?

    enum BoardError: Error, CustomStringConvertible {
        case system(String, Int32)
        var description: String {
            switch self {
            case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
            }
        }
    }

    /// The parent's board: a new file under the temporary folder, every slot empty. The file is removed
    /// by ``remove()``, or when the process exits (a second Ctrl-C exits at once); the boards of parents
    /// that were killed (SIGKILL leaves no chance to remove them) are removed by the next one.
    convenience init(creatingSlots slots: Int) throws {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        Self.removeStale(in: directory)
        let path = (directory as NSString).appendingPathComponent("scenario-run-board-\(getpid())-\(UUID().uuidString)")
        try self.init(path: path, slots: slots, slot: nil, create: true)
        for index in 0..<slots { clear(index) }
        Self.created.withLock { created in
            if created.isEmpty { atexit { ProgressBoard.removeAll() } }
            created.insert(path)
        }
    }

    /// Removes the boards in `directory` whose parent process is gone (its pid is in the name): ours
    /// only (same owner), and never one whose pid is alive, whoever it now belongs to.
    static func removeStale(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let prefix = "scenario-run-board-"
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pidText = rest.split(separator: "-").first, let pid = pid_t(pidText), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid == getuid(), info.st_mode & S_IFMT == S_IFREG else { continue }
            unlink(path)
        }
    }

    /// The boards this process created and has not removed yet.
    private static let created = Mutex<Set<String>>([])

    private static func removeAll() {
        for path in created.withLock({ $0 }) { unlink(path) }
    }

    /// A worker's view of the parent's board: it writes `slot`.
    convenience init(path: String, slot: Int) throws {
        try self.init(path: path, slots: slot + 1, slot: slot, create: false)
    }

    private init(path: String, slots: Int, slot: Int?, create: Bool) throws {
        self.path = path
        self.slot = slot
        size = max(1, slots) * Self.slotBytes
        let descriptor = open(path, create ? (O_RDWR | O_CREAT | O_EXCL) : O_RDWR, 0o600)
        guard descriptor >= 0 else { throw BoardError.system("open", errno) }
        defer { close(descriptor) }
        if create, ftruncate(descriptor, off_t(size)) != 0 { throw BoardError.system("ftruncate", errno) }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED
        else {
            throw BoardError.system("mmap", errno)
        }
        base = mapped
    }

    deinit {
        munmap(base, size)
    }

    /// Removes the file (the parent, once no worker will open it again).
    func remove() {
        unlink(path)
        Self.created.withLock { _ = $0.remove(path) }
    }

    // MARK: Writing (a worker)

    func started(scenario index: Int) {
        guard let slot else { return }
        store(Int64(Self.now()), slot, 2)
        store(-1, slot, 1)
        store(0, slot, 3)
        store(Int64(index), slot, 0)
    }

    func started(step index: Int) {
        guard let slot else { return }
        store(Int64(index), slot, 1)
    }

    func failedStep() {
        guard let slot else { return }
        store(1, slot, 3)
    }

    func finishedScenario() {
        guard let slot else { return }
        store(-1, slot, 0)
    }

    // MARK: Reading (the parent)

    /// What `slot` is running: the scenario (index into the loaded list), its step (`nil` before the
    /// first), whether every step before that one passed, and how long it has run.
    func running(in slot: Int) -> (scenario: Int, step: Int?, earlierPassed: Bool, elapsed: Duration)? {
        guard (slot + 1) * Self.slotBytes <= size else { return nil }
        let scenario = load(slot, 0)
        guard scenario >= 0 else { return nil }
        let step = load(slot, 1)
        let elapsed = Duration.nanoseconds(max(0, Int64(Self.now()) - load(slot, 2)))
        return (Int(scenario), step >= 0 ? Int(step) : nil, load(slot, 3) == 0, elapsed)
    }

    /// Empties `slot`, for a new worker in it.
    func clear(_ slot: Int) {
        guard (slot + 1) * Self.slotBytes <= size else { return }
        store(-1, slot, 0)
        store(-1, slot, 1)
        store(0, slot, 2)
        store(0, slot, 3)
    }

    private func store(_ value: Int64, _ slot: Int, _ field: Int) {
        base.storeBytes(of: value, toByteOffset: slot * Self.slotBytes + field * 8, as: Int64.self)
    }

    private func load(_ slot: Int, _ field: Int) -> Int64 {
        base.load(fromByteOffset: slot * Self.slotBytes + field * 8, as: Int64.self)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
