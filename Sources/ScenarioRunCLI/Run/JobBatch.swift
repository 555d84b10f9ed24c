/// A queue of jobs for one thread, drained in order by one task of that thread's loop at a time: the first
/// job enqueued while none is pending asks for a drain (`scheduleDrain`); jobs enqueued while it runs —
/// the ones it wakes — run in the same drain, up to ``limit`` of them, after which it asks for another,
/// so the loop's other tasks and its I/O get their turn between drains as they did between single jobs.
/// Not thread-safe: only the loop's own thread may enqueue (``EventLoopExecutor`` checks).
///
/// ```swift
/// let jobs = JobBatch<UnownedJob> { drain in loop.execute(drain) } run: { job in runJob(job) }
/// jobs.enqueue(job)   // on the loop's thread
/// ```
final class JobBatch<Job>: @unchecked Sendable {
    /// Jobs one drain runs before it asks for another.
    static var defaultLimit: Int { 64 }

    private let limit: Int
    private let scheduleDrain: (@escaping @Sendable () -> Void) -> Void
    private let run: (Job) -> Void
    // Touched on one thread, never across a call that could touch them again: unchecked, so that an enqueue
    // (about 30 a scenario) pays no exclusivity bookkeeping.
    @exclusivity(unchecked) private var jobs: [Job] = []
    /// The next job to run: `jobs[..<next]` have run.
    @exclusivity(unchecked) private var next = 0
    /// Whether a drain has been asked for and has not ended.
    @exclusivity(unchecked) private var drainPending = false

    init(
        limit: Int = JobBatch.defaultLimit,
        scheduleDrain: @escaping (@escaping @Sendable () -> Void) -> Void,
        run: @escaping (Job) -> Void
    ) {
        self.limit = max(1, limit)
        self.scheduleDrain = scheduleDrain
        self.run = run
        jobs.reserveCapacity(limit)
    }

    /// Adds a job; asks for a drain when none is pending.
    func enqueue(_ job: Job) {
        jobs.append(job)
        guard !drainPending else { return }
        drainPending = true
        scheduleDrain { [self] in drain() }
    }

    /// Runs the jobs in order, those enqueued meanwhile too, up to ``limit``; asks for another drain
    /// when jobs are left.
    private func drain() {
        var ran = 0
        while next < jobs.count, ran < limit {
            let job = jobs[next]
            next += 1
            ran += 1
            run(job)
        }
        if next == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            next = 0
            drainPending = false
        } else {
            jobs.removeFirst(next)
            next = 0
            scheduleDrain { [self] in drain() }
        }
    }
}
