import Testing

@testable import ScenarioRunCLI

/// The loop's job queue without a loop: drains asked for are kept and run by the test, as the loop would.
struct JobBatchTests {
    /// A scripted loop: the drains asked for, run one at a time; every job run, in order.
    final class Loop: @unchecked Sendable {
        var drains: [@Sendable () -> Void] = []
        var ran: [Int] = []
        var onRun: (Loop, Int) -> Void
        lazy var batch = JobBatch<Int>(limit: limit) { [unowned self] drain in
            drains.append(drain)
        } run: { [unowned self] job in
            ran.append(job)
            onRun(self, job)
        }
        let limit: Int

        init(limit: Int, onRun: @escaping (Loop, Int) -> Void = { _, _ in }) {
            self.limit = limit
            self.onRun = onRun
        }

        /// Runs the first drain asked for; whether there was one.
        @discardableResult
        func runDrain() -> Bool {
            guard !drains.isEmpty else { return false }
            drains.removeFirst()()
            return true
        }
    }

    @Test func jobsEnqueuedBeforeADrainRunInOrderInOneDrain() {
        let loop = Loop(limit: 64)
        for job in 1...5 { loop.batch.enqueue(job) }
        #expect(loop.drains.count == 1)
        #expect(loop.ran.isEmpty)
        loop.runDrain()
        #expect(loop.ran == [1, 2, 3, 4, 5])
        #expect(loop.drains.isEmpty)
        // A job after the queue ran empty asks for a new drain.
        loop.batch.enqueue(6)
        #expect(loop.drains.count == 1)
        loop.runDrain()
        #expect(loop.ran == [1, 2, 3, 4, 5, 6])
    }

    /// A job that wakes another (a task resuming the one it awaited) has it run in the same drain, after
    /// the jobs already queued.
    @Test func jobsEnqueuedByAJobRunInTheSameDrainAfterTheOthers() {
        let loop = Loop(limit: 64) { loop, job in
            if job < 10 { loop.batch.enqueue(job * 10) }
        }
        loop.batch.enqueue(1)
        loop.batch.enqueue(2)
        loop.runDrain()
        #expect(loop.ran == [1, 2, 10, 20])
        #expect(loop.drains.isEmpty)
    }

    /// At its limit a drain gives the loop back and asks for another: a job that re-enqueues itself forever
    /// (an app's loop that never suspends for real) cannot keep the loop's other tasks from their turn.
    @Test func aDrainStopsAtItsLimitAndAsksForAnother() {
        let loop = Loop(limit: 3) { loop, job in
            loop.batch.enqueue(job + 1)
        }
        loop.batch.enqueue(1)
        loop.runDrain()
        #expect(loop.ran == [1, 2, 3])
        #expect(loop.drains.count == 1)
        loop.runDrain()
        #expect(loop.ran == [1, 2, 3, 4, 5, 6])
        #expect(loop.drains.count == 1)
    }
}
