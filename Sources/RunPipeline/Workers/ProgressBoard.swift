import Foundation
package import Scenarios
import Synchronization

/// Memory both sides map, one slot per worker process: which scenario the worker is running, its step,
/// since when, and the step's timeout. The worker writes it at every scenario and step start and end (a
/// few stores, no system call); the parent reads it when a worker dies — to name the scenario and step
/// a crash interrupted, which the worker's buffered event lines may not have said yet — and a few times
/// a second, to end a worker whose step has held its thread past the step's timeout, or whose scenario
/// runs past `--scenario-timeout`.
///
/// Each slot also holds the event lines the worker has not sent yet (``unsentCapacity`` bytes: a
/// worker sends a scenario's events at its end, and sooner only when they would not fit). A worker
/// keeps every line here as it buffers it and empties the copy as it sends; when a worker dies — a
/// crash, a signal, the pool's own kill — the parent reads what it never sent, so the steps that ran
/// before are reported with their own outcomes, durations and logs rather than guessed.
///
/// The memory is an anonymous file (`memfd_create`): it has no name in `/dev/shm` or anywhere else, so
/// nothing is left behind whatever way the parent ends (`kill -9` included). A worker opens it through
/// the parent's descriptor, `/proc/PID/fd/N` (``path``). A slot is written under a sequence number
/// (odd while the worker writes it), so the parent never reads half of an update.
///
/// ```swift
/// let board = try ProgressBoard(creatingSlots: 2)          // parent
/// let mine = try ProgressBoard(path: board.path, slot: 1)   // worker 1
/// mine.started(scenario: 7, stepTimeouts: timeouts); mine.started(step: 3, phase: .steps)
/// board.running(in: 1)   // scenario 7, step 3, its start and timeout
/// ```
package final class ProgressBoard: @unchecked Sendable {  // the memory is written by one process, read by another
    /// What a slot holds, each an `Int64`.
    private enum Field: Int, CaseIterable {
        /// Odd while the worker writes the slot.
        case sequence
        /// The scenario's position in the run's plan, as the parent named it; −1 when none.
        case scenario
        /// When the scenario started (CLOCK_MONOTONIC nanoseconds, the same clock in every process).
        case scenarioStart
        /// 1 once a step of the scenario failed.
        case failed
        /// The index of the step started last; −1 before the first.
        case step
        /// When that step started; 0 once it finished.
        case stepStart
        /// The step's timeout in nanoseconds.
        case stepTimeout
        /// The step's phase (``phases``).
        case phase
    }

    /// The fields, then the unsent lines' length and the lines.
    private static let fieldBytes = Field.allCases.count * MemoryLayout<Int64>.stride
    /// How many bytes of unsent event lines a slot holds (64 KiB: the pages are only used as written).
    static let unsentCapacity = 64 << 10
    private static let slotBytes = fieldBytes + MemoryLayout<Int64>.stride + unsentCapacity
    private static let phases: [StepPhase] = [.setUp, .steps, .tearDown, .leakCheck]

    /// Where a worker opens the board: the parent's descriptor of it, under `/proc`.
    let path: String
    private let base: UnsafeMutableRawPointer
    private let size: Int
    /// The slot this process writes (a worker), or `nil` (the parent, which reads every slot).
    private let slot: Int?
    /// The parent's descriptor of the memory (closed with the board); `nil` in a worker.
    private let descriptor: Int32?
    /// The timeouts of the steps of the scenario the worker runs; written and read by the runner's
    /// events, which come one at a time.
    nonisolated(unsafe) private var stepTimeouts: [Int64] = []

    enum BoardError: Error, CustomStringConvertible {
        case system(String, Int32)
        var description: String {
            switch self {
            case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
            }
        }
    }

    /// What a worker is doing, as its slot says.
    typealias Progress = WorkerProgress

    /// The parent's board: anonymous memory, every slot empty.
    init(creatingSlots slots: Int) throws {
        slot = nil
        size = max(1, slots) * Self.slotBytes
        let created = Self.anonymousFile()
        guard created >= 0 else { throw BoardError.system("memfd_create", errno) }
        descriptor = created
        path = "/proc/\(getpid())/fd/\(created)"
        guard ftruncate(created, off_t(size)) == 0 else {
            let code = errno
            close(created)
            throw BoardError.system("ftruncate", code)
        }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, created, 0), mapped != MAP_FAILED
        else {
            let code = errno
            close(created)
            throw BoardError.system("mmap", code)
        }
        base = mapped
        for index in 0..<slots { clear(index) }
    }

    /// A worker's view of the parent's board: it writes `slot`.
    init(path: String, slot: Int) throws {
        self.path = path
        self.slot = slot
        descriptor = nil
        size = (slot + 1) * Self.slotBytes
        let opened = open(path, O_RDWR | O_CLOEXEC)
        guard opened >= 0 else { throw BoardError.system("open", errno) }
        defer { close(opened) }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, opened, 0), mapped != MAP_FAILED
        else {
            throw BoardError.system("mmap", errno)
        }
        base = mapped
    }

    deinit {
        munmap(base, size)
        if let descriptor { close(descriptor) }
    }

    /// A new anonymous file closed on exec: `memfd_create` (looked up at run time, as Glibc's module does
    /// not declare it), else an unnamed file in `/dev/shm` (`O_TMPFILE`). −1 with `errno` when neither works.
    private static func anonymousFile() -> Int32 {
        typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
        let closeOnExec: UInt32 = 1  // MFD_CLOEXEC
        if let symbol = dlsym(nil, "memfd_create") {
            let created = unsafeBitCast(symbol, to: MemfdCreate.self)("scenario-run-board", closeOnExec)
            if created >= 0 { return created }
        }
        let temporaryFile: Int32 = 0o20_200_000  // O_TMPFILE: __O_TMPFILE | O_DIRECTORY
        return open("/dev/shm", temporaryFile | O_RDWR | O_CLOEXEC, 0o600)
    }

    // MARK: Writing (a worker)

    func started(scenario index: Int, stepTimeouts: [Duration]) {
        guard let slot else { return }
        self.stepTimeouts = stepTimeouts.map(Self.nanoseconds)
        update(slot) {
            store(Self.now(), slot, .scenarioStart)
            store(-1, slot, .step)
            store(0, slot, .stepStart)
            store(0, slot, .failed)
            store(Int64(index), slot, .scenario)
        }
    }

    func started(step index: Int, phase: StepPhase) {
        guard let slot else { return }
        let timeout = stepTimeouts.indices.contains(index) ? stepTimeouts[index] : 0
        let phaseIndex = Int64(Self.phases.firstIndex(of: phase) ?? 1)
        update(slot) {
            store(Int64(index), slot, .step)
            store(timeout, slot, .stepTimeout)
            store(phaseIndex, slot, .phase)
            store(Self.now(), slot, .stepStart)
        }
    }

    func finishedStep(failed: Bool) {
        guard let slot else { return }
        update(slot) {
            store(0, slot, .stepStart)
            if failed { store(1, slot, .failed) }
        }
    }

    func finishedScenario() {
        guard let slot else { return }
        update(slot) {
            store(0, slot, .stepStart)
            store(-1, slot, .scenario)
        }
    }

    /// Keeps a copy of `line`, which the worker buffers to send; `false` when it does not fit beside
    /// what is kept (send what is buffered, ``sending()``, and keep it then) or at all (send it at once).
    func keep(_ line: ArraySlice<UInt8>) -> Bool {
        guard let slot else { return true }
        let kept = Int(unsentLength(slot))
        guard kept + line.count <= Self.unsentCapacity else { return false }
        line.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress else { return }
            (base + unsentOffset(slot) + kept).copyMemory(from: source, byteCount: bytes.count)
        }
        // The length after the bytes: a worker ended between the two leaves the line out, never half of it.
        atomicMemoryFence(ordering: .releasing)
        storeUnsentLength(Int64(kept + line.count), slot)
        return true
    }

    /// The worker sends what it buffered: the copy is emptied first (a worker that dies while sending
    /// leaves its lines out of the report rather than in it twice).
    func sending() {
        guard let slot else { return }
        storeUnsentLength(0, slot)
        atomicMemoryFence(ordering: .releasing)
    }

    // MARK: Reading (the parent)

    /// What `slot` is running; `nil` when no scenario (or the slot was being written at every try).
    func running(in slot: Int) -> Progress? {
        guard (slot + 1) * Self.slotBytes <= size else { return nil }
        for _ in 0..<100 {
            let before = load(slot, .sequence)
            guard before & 1 == 0 else { continue }
            atomicMemoryFence(ordering: .acquiring)
            let scenario = load(slot, .scenario)
            let scenarioStart = load(slot, .scenarioStart)
            let failed = load(slot, .failed)
            let step = load(slot, .step)
            let stepStart = load(slot, .stepStart)
            let stepTimeout = load(slot, .stepTimeout)
            let phase = load(slot, .phase)
            atomicMemoryFence(ordering: .acquiring)
            guard load(slot, .sequence) == before else { continue }
            guard scenario >= 0 else { return nil }
            let now = Self.now()
            return Progress(
                scenario: Int(scenario),
                step: step >= 0 ? Int(step) : nil,
                phase: Self.phases.indices.contains(Int(phase)) ? Self.phases[Int(phase)] : .steps,
                earlierPassed: failed == 0,
                elapsed: .nanoseconds(max(0, now - scenarioStart)),
                stepStart: stepStart > 0 ? stepStart : nil,
                stepElapsed: stepStart > 0 ? .nanoseconds(max(0, now - stepStart)) : nil,
                stepTimeout: .nanoseconds(stepTimeout)
            )
        }
        return nil
    }

    /// The event lines the worker in `slot` buffered and never sent (read once it has ended).
    func unsent(in slot: Int) -> Data {
        guard (slot + 1) * Self.slotBytes <= size else { return Data() }
        atomicMemoryFence(ordering: .acquiring)
        let length = min(max(0, Int(unsentLength(slot))), Self.unsentCapacity)
        return Data(bytes: base + unsentOffset(slot), count: length)
    }

    /// Empties `slot`, for a new worker in it.
    func clear(_ slot: Int) {
        guard (slot + 1) * Self.slotBytes <= size else { return }
        for field in Field.allCases { store(field == .scenario || field == .step ? -1 : 0, slot, field) }
        storeUnsentLength(0, slot)
    }

    // MARK: Memory

    /// Writes a slot under its sequence number: odd while `body` stores, even again after.
    private func update(_ slot: Int, _ body: () -> Void) {
        let sequence = load(slot, .sequence)
        store(sequence + 1, slot, .sequence)
        atomicMemoryFence(ordering: .releasing)
        body()
        atomicMemoryFence(ordering: .releasing)
        store(sequence + 2, slot, .sequence)
    }

    private func store(_ value: Int64, _ slot: Int, _ field: Field) {
        base.storeBytes(of: value, toByteOffset: slot * Self.slotBytes + field.rawValue * 8, as: Int64.self)
    }

    private func load(_ slot: Int, _ field: Field) -> Int64 {
        base.load(fromByteOffset: slot * Self.slotBytes + field.rawValue * 8, as: Int64.self)
    }

    private func unsentLength(_ slot: Int) -> Int64 {
        base.load(fromByteOffset: slot * Self.slotBytes + Self.fieldBytes, as: Int64.self)
    }

    private func storeUnsentLength(_ length: Int64, _ slot: Int) {
        base.storeBytes(of: length, toByteOffset: slot * Self.slotBytes + Self.fieldBytes, as: Int64.self)
    }

    private func unsentOffset(_ slot: Int) -> Int {
        slot * Self.slotBytes + Self.fieldBytes + MemoryLayout<Int64>.stride
    }

    /// CLOCK_MONOTONIC in nanoseconds: the same clock in the parent and its workers.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// What a worker is doing, as its slot of the ``ProgressBoard`` says.
package struct WorkerProgress: Equatable, Sendable {
    /// The scenario's position in the run's plan.
    package var scenario: Int
    /// The step started last (`nil` before the first).
    package var step: Int?
    package var phase: StepPhase
    /// Whether no step of the scenario has failed.
    package var earlierPassed: Bool
    /// How long the scenario has run.
    package var elapsed: Duration
    /// When the step started (CLOCK_MONOTONIC nanoseconds), while it runs; `nil` once it finished.
    package var stepStart: Int64?
    /// How long the running step has run, and its timeout.
    package var stepElapsed: Duration?
    package var stepTimeout: Duration

    package init(
        scenario: Int,
        step: Int?,
        phase: StepPhase,
        earlierPassed: Bool,
        elapsed: Duration,
        stepStart: Int64? = nil,
        stepElapsed: Duration? = nil,
        stepTimeout: Duration = .zero
    ) {
        self.scenario = scenario
        self.step = step
        self.phase = phase
        self.earlierPassed = earlierPassed
        self.elapsed = elapsed
        self.stepStart = stepStart
        self.stepElapsed = stepElapsed
        self.stepTimeout = stepTimeout
    }
}
