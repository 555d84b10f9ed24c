import ExampleApp
import Foundation
import ObjectManager
import Scenarios
import StubServer
import Testing

@testable import Steps

extension FullStack {
    /// Issue 27: negative and upper-bound expectations judged before the work they judge was done, and
    /// `expect request` trusted a journal that had forgotten requests.
    /// (The steps' timeouts are hang guards, 30 s: each expectation judges as soon as the work is done, so a
    /// loaded machine that is slow to finish it cannot turn the answer into a timeout.)
    @Suite struct ExpectationTruthTests {
        /// `count: 0` passed at once while the request an earlier step started was still in flight (the
        /// stub server answers it after 0.3 s); it waits for the app to be idle, then judges.
        @Test func aZeroCountWaitsForTheRequestInFlight() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - stub request: { path: /restaurants, method: GET, fixture: restaurants.json, delay: 0.3 }
                    - get objects: { route: restaurants }
                    - expect entities: { entity: Restaurant, count: 0 }
                      timeout: 30
                    """
            )
            #expect(outcome.summary.failed == 1)
            #expect(
                outcome.failures.first?.contains("20 Restaurant object(s), expected 0") == true,
                "\(outcome.failures)"
            )
        }

        @Test func atMostWaitsForTheRequestInFlightToo() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - get objects: { path: /slow }
                    - get objects: { path: /slow }
                    - expect request: { method: GET, path: /slow, at most: 1 }
                      timeout: 30
                    """
            )
            #expect(outcome.summary.failed == 1, "\(outcome.events)")
            #expect(outcome.failures.first?.contains("2 matching request(s), expected at most 1") == true)
        }

        /// `count: 0` passed at once while the app's own work was pending: a debounce, its idling resource
        /// busy, that fetches the restaurants 0.8 s later. Both expectations wait for the resource, then see
        /// the work it did.
        @Test(arguments: [
            "expect entities: { entity: Restaurant, count: 0 }",
            "expect request: { method: GET, path: /restaurants, count: 0 }",
        ])
        func aZeroCountWaitsForABusyIdlingResource(expectation: String) async throws {
            let outcome = try await StepHarness(app: Self.debouncingApp()).run(
                steps: """
                    - stub request: { path: /restaurants, method: GET, fixture: restaurants.json }
                    - fetch restaurants after a debounce
                    - \(expectation)
                      timeout: 30
                    """
            )
            #expect(outcome.summary.failed == 1, "\(outcome.events)")
            let expected =
                expectation.hasPrefix("expect entities")
                ? "20 Restaurant object(s), expected 0" : "1 matching request(s), expected count 0"
            #expect(outcome.failures.first?.contains(expected) == true, "\(outcome.failures)")
        }

        /// `expect request … count: 0` passed while the request an earlier step sent was still in flight.
        @Test func aZeroRequestCountWaitsForTheRequestInFlight() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - stub request: { path: /restaurants, method: GET, fixture: restaurants.json, delay: 0.3 }
                    - get objects: { route: restaurants }
                    - expect request: { method: GET, path: /restaurants, count: 0 }
                      timeout: 30
                    """
            )
            #expect(outcome.summary.failed == 1, "\(outcome.events)")
            #expect(
                outcome.failures.first?.contains("1 matching request(s), expected count 0") == true,
                "\(outcome.failures)"
            )
        }

        /// The example app with a step that starts work of its own: a debounce that, 0.8 s later, fetches
        /// the restaurants, with an idling resource raised until it is done.
        static func debouncingApp() -> AppUnderTest {
            let debounce = CountingIdlingResource("debounce")
            let step = StepDefinition("fetch restaurants after a debounce", summary: "Fetches 0.8 s later") { _, _ in
                Step("fetch restaurants after a debounce") { context in
                    let manager = try context.objectManager
                    debounce.increment()
                    Task {
                        try? await Task.sleep(for: .milliseconds(800))
                        _ = try? await manager.getObjects(forRouteNamed: "restaurants")
                        debounce.decrement()
                    }
                    return .success
                }
            }
            let app = RestaurantReviews.appUnderTest
            return AppUnderTest(
                makeFactory: app.makeFactory,
                steps: app.steps + [step],
                leakChecks: app.leakChecks,
                idlingResources: app.idlingResources + [debounce]
            )
        }

        /// A count the journal cannot prove, because it forgot requests since the scenario began, fails
        /// saying why; "at least" with enough kept matches is still proven.
        @Test func aCountTheJournalCannotProveFails() {
            let journal = RequestJournal(limits: .init(entries: 3))
            for _ in 0..<5 { journal.record(JournalEntry(method: "POST", path: "/review")) }
            func verdict(_ times: ClosedRange<Int>) -> StepResult {
                RequestExpectation(method: "POST", path: "/review", conditions: RequestConditions(), times: times)
                    .verdict(on: journal)
            }
            let expected =
                "Cannot check count 1: the stub server's journal forgot 2 of this scenario's requests (it keeps the newest 3 within 32 MiB); check fewer requests per scenario, or use 'at least'."
            guard case .failure(let reason) = verdict(1...1) else {
                Issue.record("count 1 passed or waited on a journal that dropped requests")
                return
            }
            #expect(reason == expected)
            guard case .failure = verdict(0...0) else {
                Issue.record("count 0 was not refused")
                return
            }
            guard case .success = verdict(2...Int.max) else {
                Issue.record("at least 2 of 3 kept matches is proven")
                return
            }
        }
    }
}
