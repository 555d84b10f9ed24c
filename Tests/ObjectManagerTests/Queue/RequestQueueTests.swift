import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjectManager

struct RequestQueueTests {
    @Test func suspendedQueueHoldsRequestsAndReleasesThemInOrder() async throws {
        let queue = RequestQueue(maxConcurrentRequests: 1)
        let recorder = Recorder<String>()
        queue.isSuspended = true
        // One at a time, so that the order they are queued in is the order they are made in.
        var tasks: [Task<Int, any Error>] = []
        for index in 1...3 {
            tasks.append(
                Task {
                    try await queue.perform("r\(index)") {
                        recorder.append("r\(index)"); return index
                    }
                }
            )
            #expect(await eventually { queue.pendingCount == index })
        }
        #expect(recorder.all.isEmpty)
        #expect(queue.inFlightCount == 0)
        queue.isSuspended = false
        var results: [Int] = []
        for task in tasks { results.append(try await task.value) }
        #expect(results == [1, 2, 3])
        #expect(recorder.all == ["r1", "r2", "r3"])
        await queue.drained()
        #expect(queue.count == 0)
    }

    @Test func cancelAllEndsQueuedAndInFlightRequestsWithCancellation() async throws {
        let queue = RequestQueue(maxConcurrentRequests: 1)
        let started = Recorder<String>()
        let inFlight = Task {
            try await queue.perform("slow") {
                started.append("slow")
                try await Task.sleep(for: .seconds(60))
                return 1
            }
        }
        #expect(await eventually { started.all == ["slow"] })
        let queued = Task {
            try await queue.perform("queued") {
                started.append("queued"); return 2
            }
        }
        #expect(await eventually { queue.pendingCount == 1 })
        queue.cancelAll()
        await #expect(throws: CancellationError.self) { try await inFlight.value }
        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(started.all == ["slow"])
        await queue.drained()
        #expect(queue.count == 0)
    }

    @Test func cancellingTheCallerCancelsTheRequest() async throws {
        let queue = RequestQueue()
        queue.isSuspended = true
        let task = Task { try await queue.perform("held") { 1 } }
        #expect(await eventually { queue.pendingCount == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(queue.pendingCount == 0)
    }

    @Test func observersHearEveryChange() async throws {
        let queue = RequestQueue()
        let changes = Recorder<String>()
        let observation = queue.observe { changes.append("change") }
        _ = try await queue.perform("one") { 1 }
        #expect(changes.all.count >= 2)  // started, finished
        withExtendedLifetime(observation) {}
    }
}
