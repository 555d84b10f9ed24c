import CSwiftHooks
import Foundation
import NIOCore
import NIOPosix
import Scenarios
import SharedValues

/// Swift concurrency's global executor for a run: NIO's singleton event loop, so that a step, its
/// request and the stub server's answer run on one thread (DECISIONS 28) — each job run *as the generic
/// executor*, the one a `nonisolated async` function runs on, except an app's code (DECISIONS 180).
///
/// NIO's own take-over (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`)
/// runs every job on the loop's serial executor: a task is then never on the generic executor, and every
/// call into a `nonisolated async` function — the runner's, the standard library's
/// `withTaskCancellationHandler`, NIO's and Hummingbird's — "switches" to it through the loop's queue:
/// 265 jobs a scenario where about 25 suspend for real. Here the same hook enqueues onto the same loop,
/// and the loop runs the job as the runtime's generic executor, as the default global executor does on
/// its threads. An app's step actions and background work keep the trip through the queue per `await`
/// (``AppCode``), so one that never suspends for real cannot hold the run's own work off the loop.
///
/// ```swift
/// EventLoopExecutor.install(loops: 1)   // first thing, before any task is enqueued
/// ```
package enum EventLoopExecutor {
    /// The runtime's hook for enqueueing a global job: `(job, the original enqueue) -> Void`.
    private typealias EnqueueGlobalHook =
        @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Makes NIO's singleton group of `loops` event loops the global executor; falls back to NIO's own
    /// take-over (every job as the loop's serial executor, as before) when something else set the hook.
    package static func install(loops: Int) {
        NIOSingletons.groupLoopCountSuggestion = max(1, min(loops, 64))
        guard installHook() else {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            return
        }
        if NIOSingletons.groupLoopCountSuggestion == 1 {
            let loop = MultiThreadedEventLoopGroup.singleton.any()
            let serial = loop.executor.asUnownedSerialExecutor()
            // The one loop's jobs enqueued from its own thread, one queue a loop task drains.
            let jobs = JobBatch<(job: UnownedJob, asAppCode: Bool)> { drain in
                loop.execute(drain)
            } run: { job in
                runJob(job.job, job.asAppCode ? serial : genericSerialExecutor)
            }
            oneLoop = (loop, jobs)
        }
        AppCode.executor = AppCodeExecutor()
    }

    /// Whether the hook is now ours.
    private static func installHook() -> Bool {
        // Reached through the linker, not `dlsym`: a runtime linked statically (`--static-swift-stdlib`)
        // exports no symbol for `dlsym` to find, and the run fell back to NIO's take-over, half as fast.
        let symbol = UnsafeMutableRawPointer(cswifthooks_enqueue_global_hook())
        let hook: EnqueueGlobalHook = { job, _ in
            guard !enqueuedOnItsLoop(job, asAppCode: false) else { return }
            // `any()` stays on the current loop when called from one of the group's threads.
            MultiThreadedEventLoopGroup.singleton.any().execute { runJob(job, genericSerialExecutor) }
        }
        // Set once, first thing, before another thread could; one set before is left alone. (The runtime
        // reads the hook with a plain load; NIO's compare-and-exchange guards only against another
        // installer, which nothing here runs.)
        let slot = symbol.assumingMemoryBound(to: UnsafeRawPointer?.self)
        guard slot.pointee == nil else { return false }
        slot.pointee = unsafeBitCast(hook, to: UnsafeRawPointer.self)
        return true
    }
}

/// Where an app's code runs (``AppCode/executor``): the same loop, each job as the loop's *serial*
/// executor — as NIO's take-over runs every job — so every call into a `nonisolated async` function
/// goes back through the loop's queue, behind the run's own jobs.
private final class AppCodeExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        guard !enqueuedOnItsLoop(unowned, asAppCode: true) else { return }
        MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(unowned))
    }
}

/// The jobs enqueued on the loop's own thread when the group has one loop (a run's default:
/// `SCENARIO_RUN_EVENT_LOOPS` unset), in one queue that a loop task drains: such a job — nearly every one,
/// the runner, the client and the stub server sharing the thread — costs an append, not a task of NIO's
/// queue of its own (a closure, a lock, its copies). A job enqueued from another thread (a timer's
/// wake-up) goes through NIO's queue as before. `asAppCode`: run as the loop's serial executor
/// (``AppCode``), else as the generic one. Set once by `install(loops:)`, before the first job; read
/// without exclusivity checks (written once, before any reader).
@exclusivity(unchecked)
nonisolated(unsafe) private var oneLoop: (loop: any EventLoop, jobs: JobBatch<(job: UnownedJob, asAppCode: Bool)>)?

/// Whether `job` went into the one loop's own queue: only when there is one and this is its thread.
private func enqueuedOnItsLoop(_ job: UnownedJob, asAppCode: Bool) -> Bool {
    guard let oneLoop, oneLoop.loop.inEventLoop else { return false }
    oneLoop.jobs.enqueue((job, asAppCode: asAppCode))
    return true
}

/// The runtime's generic serial executor (`SerialExecutorRef::generic()`), as the standard library gets it.
private let genericSerialExecutor = getGenericSerialExecutor()

/// Runs `job` on `executor` (the standard library's `UnownedJob.runSynchronously(on:)` calls the same).
@_silgen_name("swift_job_run")
private func runJob(_ job: UnownedJob, _ executor: UnownedSerialExecutor)

/// The standard library's `_getGenericSerialExecutor()` (usable from inline code, so exported; Swift 6.0+).
@_silgen_name("$ss25_getGenericSerialExecutorBeyF")
private func getGenericSerialExecutor() -> UnownedSerialExecutor
