import Testing

@testable import ObjectManager

struct RequestQueueStateTests {
    @Test func startsUpToTheConcurrencyLimitInOrder() {
        var state = RequestQueueState(maxConcurrent: 2)
        #expect(state.enqueue(1) == [.start(1)])
        #expect(state.enqueue(2) == [.start(2)])
        #expect(state.enqueue(3) == [])
        #expect(state.finished(1) == [.start(3)])
        #expect(state.finished(2) == [])
        #expect(state.finished(3) == [.drained])
    }

    @Test func suspendedStartsNothingAndResumeStartsInOrder() {
        var state = RequestQueueState(maxConcurrent: 5)
        _ = state.setSuspended(true)
        #expect(state.enqueue(1) == [])
        #expect(state.enqueue(2) == [])
        #expect(state.pending == [1, 2])
        #expect(state.setSuspended(false) == [.start(1), .start(2)])
    }

    @Test func cancelAllCancelsQueuedAndRunning() {
        var state = RequestQueueState(maxConcurrent: 1)
        _ = state.enqueue(1)
        _ = state.enqueue(2)
        #expect(state.cancelAll() == [.cancelQueued(2), .cancelRunning(1)])
        #expect(state.pending.isEmpty)
        #expect(state.running == [1])  // running until its work returns
        #expect(state.finished(1) == [.drained])
    }

    @Test func cancellingTheOnlyQueuedRequestDrains() {
        var state = RequestQueueState(maxConcurrent: 1)
        _ = state.setSuspended(true)
        _ = state.enqueue(1)
        #expect(state.cancel(1) == [.cancelQueued(1), .drained])
    }
}
