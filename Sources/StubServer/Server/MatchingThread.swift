import Dispatch

/// Where a request whose matching may take a while is matched (many or long values for the routes'
/// regular expressions: ``StubSession/slowMatchingSteps``), and every near-miss report is made: one
/// thread of its own, off the event loop that reads every connection — and, in a run, runs the
/// scenarios — so that a slow `when:` or a long unmatched path delays only the requests that need it.
/// One at a time: slow matching takes at most one core.
enum MatchingThread {
    private static let queue = DispatchQueue(label: "scenario-run.stub-matching", qos: .userInitiated)

    /// The result of `work`, run on the matching thread.
    static func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}
