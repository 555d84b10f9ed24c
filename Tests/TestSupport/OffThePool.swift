import Dispatch

/// The result of `work`, run on a thread of its own rather than Swift Testing's shared ones: the tests
/// run on two threads on two cores, and a test that computes for seconds on one of them (loading a
/// million YAML nodes) held timing-sensitive tests of the same run past their bounds.
public func offThePool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}
