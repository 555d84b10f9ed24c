import ExampleApp
import Foundation
import ObjectManager
import TestSupport
import Testing

extension FullStack {
    @Suite struct QueueAndCacheTests {
        @Test func suspendedQueueHoldsRequestsUntilResumedThenSendsThemInOrder() async throws {
            let stack = try await LiveStack.start()
            let manager = stack.manager
            manager.queue.maxConcurrentRequests = 1
            manager.queue.isSuspended = true
            let first = Task {
                try await manager.getObjects(atPath: "/restaurants", cachePolicy: .reloadIgnoringCacheData)
            }
            #expect(await eventually { manager.queue.pendingCount == 1 })
            let second = Task {
                try await manager.getObjects(atPath: "/articles/news/1", cachePolicy: .reloadIgnoringCacheData)
            }
            #expect(await eventually { manager.queue.pendingCount == 2 })
            #expect(stack.server.journal.entries.isEmpty)
            manager.queue.isSuspended = false
            _ = try await first.value
            _ = try await second.value
            #expect(stack.server.journal.entries.map(\.path) == ["/restaurants", "/articles/news/1"])
            try await stack.stop()
        }

        @Test func cancelAllCancelsQueuedAndInFlightRequests() async throws {
            let stack = try await LiveStack.start()
            let manager = stack.manager
            manager.queue.maxConcurrentRequests = 1
            let inFlight = Task {
                try await manager.getObjects(atPath: "/stalled", cachePolicy: .reloadIgnoringCacheData)
            }
            #expect(await eventually { stack.server.journal.entries.count == 1 })
            let queued = Task {
                try await manager.getObjects(atPath: "/restaurants", cachePolicy: .reloadIgnoringCacheData)
            }
            #expect(await eventually { manager.queue.pendingCount == 1 })
            manager.queue.cancelAll()
            for task in [inFlight, queued] {
                let error = try await #require(throws: ObjectManagerError.self) { try await task.value }
                #expect(error.isCancellation)
            }
            await manager.queue.drained()
            #expect(stack.server.journal.entries.map(\.path) == ["/stalled"])
            #expect(manager.history.filter { $0.errorDescription?.contains("cancelled") == true }.count == 2)
            try await stack.stop()
        }

        @Test func offlineGETIsServedFromTheCacheWithoutHittingTheServer() async throws {
            let stack = try await LiveStack.start()
            let manager = stack.manager
            let url = manager.router.url(forPath: "/restaurants")
            manager.cache.store(
                CachedResponse(
                    method: .get,
                    url: url,
                    status: 200,
                    headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                    body: Data(#"[{"id": 7, "name": "Cached Café"}]"#.utf8)
                )
            )
            manager.client.stubReachability(.notReachable)
            let result = try await manager.getObjects(forRouteNamed: "restaurants")
            #expect(result.response.isFromCache)
            #expect(result.objects.first?["name"] == .string("Cached Café"))
            #expect(stack.server.journal.entries.isEmpty)
            try await stack.stop()
        }

        @Test func offlineWithNothingCachedIsAClearError() async throws {
            let stack = try await LiveStack.start()
            stack.manager.client.stubReachability(.notReachable)
            let error = try await #require(throws: ObjectManagerError.self) {
                try await stack.manager.getObjects(atPath: "/restaurants")
            }
            #expect(
                error.description == "The network is not reachable and no cached response exists for GET /restaurants."
            )
            #expect(stack.server.journal.entries.isEmpty)
            try await stack.stop()
        }

        @Test func cachePoliciesDecideBetweenCacheAndNetwork() async throws {
            let stack = try await LiveStack.start()
            let manager = stack.manager
            _ = try await manager.getObjects(atPath: "/restaurants")  // loads and caches
            #expect(stack.server.journal.entries.count == 1)
            _ = try await manager.getObjects(atPath: "/restaurants", cachePolicy: .returnCacheDataElseLoad)
            _ = try await manager.getObjects(atPath: "/restaurants", cachePolicy: .returnCacheDataDontLoad)
            #expect(stack.server.journal.entries.count == 1)
            // No max-age: loads.
            _ = try await manager.getObjects(atPath: "/restaurants", cachePolicy: .useProtocolCachePolicy)
            _ = try await manager.getObjects(atPath: "/restaurants", cachePolicy: .reloadIgnoringCacheData)
            #expect(stack.server.journal.entries.count == 3)
            await #expect(throws: ObjectManagerError.self) {
                try await manager.getObjects(atPath: "/articles/a/1", cachePolicy: .returnCacheDataDontLoad)
            }
            try await stack.stop()
        }

        @Test func timeoutsAndFaultsSurfaceAsErrors() async throws {
            let stack = try await LiveStack.start()
            stack.manager.client.timeout = .milliseconds(200)
            let timedOut = try await #require(throws: ObjectManagerError.self) {
                try await stack.manager.getObjects(atPath: "/stalled", cachePolicy: .reloadIgnoringCacheData)
            }
            guard case .timedOut = timedOut else { Issue.record("expected a timeout, got \(timedOut)"); return }
            let reset = try await #require(throws: ObjectManagerError.self) {
                try await stack.manager.getObjects(atPath: "/dropped", cachePolicy: .reloadIgnoringCacheData)
            }
            guard case .connectionFailed = reset else {
                Issue.record("expected a connection failure, got \(reset)"); return
            }
            try await stack.stop()
        }

        @Test func isolationSetUpAndTearDownResetEverySharedInstance() async throws {
            let stack = try await LiveStack.start()
            try stack.manager.router.replacePathPattern(of: .class(entity: "Review", method: .post), with: "/422")
            _ = try stack.factory.object(fromFactory: "restaurant")
            try stack.context.save()
            try await stack.factory.tearDown()
            #expect(ObjectManager.shared == nil)
            #expect(EntityStore.defaultStore == nil)

            let manager = try await stack.factory.setUp(baseURL: stack.manager.baseURL)
            #expect(ObjectManager.shared === manager)
            #expect(manager.router.routes.stubbedRoutes.isEmpty)
            #expect(try #require(manager.store).mainContext.count("Restaurant") == 0)
            #expect(manager.cache.count == 0)
            #expect(manager.client.reachabilityStatus == .reachableViaWiFi)
            try await stack.factory.tearDown()
            await stack.server.stop()
        }
    }
}
