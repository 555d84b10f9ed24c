import ExampleApp
import Foundation
import ObjectManager
import Scenarios
import Steps
import Testing

extension FullStack {
    /// `check for leaks` against the live stack: each kind of leak, found when tear-down forgets to undo
    /// it, and none after the default tear-down.
    @Suite struct LeakCheckTests {
        /// Scenarios that each leave one kind of state, with the check's reason when nothing tears down.
        static let leaking: [(String, String, String)] = [
            (
                "rows",
                """
                - insert entity: { entity: Review, attributes: { reviewID: 1, title: a } }
                - insert entity: { entity: Review, attributes: { reviewID: 2, title: b } }
                - insert entity: { entity: User, attributes: { userID: 3, name: Ada } }
                """, "2 Review rows; 1 User row"
            ),
            (
                "unsaved objects",
                """
                - insert entity: { entity: User, attributes: { userID: 3, name: Ada }, save: false }
                """, "1 unsaved User object"
            ),
            (
                "stubbed routes",
                """
                - stub route: { class: Review, method: POST, to: /422 }
                - stub route: { relationship: reviews, class: Restaurant, method: GET, to: /restaurants }
                - stub route: { name: restaurants, to: /slow }
                """,
                "route Review POST still points to /422; route 'restaurants' still points to /slow; "
                    + "route reviews of Restaurant GET still points to /restaurants"
            ),
            (
                "a suspended queue with a request",
                """
                - suspend queue: true
                - get objects: { path: /restaurants }
                - expect pending requests: 1
                """, "queue still suspended; 1 request still queued; 1 background task of steps still running"
            ),
            (
                "stubbed reachability",
                """
                - stub reachability: not reachable
                """, "reachability still stubbed as not reachable"
            ),
            (
                "cached responses",
                """
                - cache response: { path: /a, data: { x: 1 } }
                - cache response: { path: /b, data: { x: 2 } }
                """, "2 cached responses"
            ),
            (
                "a request still running",
                """
                - get objects: { path: /stalled }
                - expect pending requests: 1
                """, "1 request still running; 1 background task of steps still running"
            ),
        ]

        /// A tear-down that forgets `tear down the test environment`.
        static func forgetful() throws -> StepHarness {
            try StepHarness { $0.defaultTearDown = [] }
        }

        @Test(arguments: leaking.map(\.0)) func aLeakFailsTheCheckWithItsDescription(_ name: String) async throws {
            let (_, steps, reason) = try #require(Self.leaking.first { $0.0 == name })
            let outcome = try await Self.forgetful().run(steps: steps)
            #expect(outcome.failures == [reason])
            #expect(outcome.summary.failed == 1)
            #expect(
                outcome.events.last { if case .stepFinished = $0 { true } else { false } }.map(Self.phase) == .leakCheck
            )
        }

        @Test func theDefaultTearDownLeavesNothingBehind() async throws {
            let steps = Self.leaking.map(\.1).joined(separator: "\n").split(separator: "\n")
                .filter { !$0.contains("expect pending requests") }.joined(separator: "\n")
            // A hang guard, not a limit: under a loaded CI machine the tear-down of all seven took over 5 s.
            let outcome = try await StepHarness { $0.stepTimeout = .seconds(60) }.run(steps: steps)
            #expect(outcome.failures == [])
            #expect(outcome.summary.passed == 1)
        }

        @Test func aSharedManagerThatLooksFreshIsNoLeak() async throws {
            let outcome = try await Self.forgetful().run(
                steps: "- get objects: { path: /restaurants }\n- wait for requests"
            )
            #expect(outcome.failures == ["20 Restaurant rows; 1 cached response"])
            let fresh = try await Self.forgetful().run(steps: "- succeed: nothing to leave")
            #expect(fresh.failures == [])
        }

        @Test func warnReportsTheLeaksAndPasses() async throws {
            let harness = try StepHarness {
                $0.defaultTearDown = []
                $0.leaks = .warn
            }
            let outcome = try await harness.run(steps: "- stub reachability: not reachable")
            #expect(outcome.failures == [])
            #expect(outcome.summary.passed == 1)
            #expect(
                outcome.events.contains { event in
                    if case .stepFinished(_, _, .leakCheck, .warned("reachability still stubbed as not reachable"), _) =
                        event
                    {
                        return true
                    }
                    return false
                }
            )
        }

        @Test func theAppsOwnChecksRunAfterTheBuiltInOnes() async throws {
            let outcome = try await StepHarness().run(steps: "- save draft: Half-written")
            #expect(outcome.failures == ["1 review draft still saved"])

            struct Unreadable: Error, CustomStringConvertible {
                var description: String { "The drafts file is locked." }
            }
            var app = RestaurantReviews.appUnderTest
            app.leakChecks.append(LeakCheck("drafts file") { _ in throw Unreadable() })
            let forgetful = try StepHarness(app: app) { $0.defaultTearDown = [] }
            let both = try await forgetful.run(steps: "- save draft: Half-written\n- suspend queue: true")
            #expect(
                both.failures == [
                    "queue still suspended; 1 review draft still saved; leak check 'drafts file' failed: The drafts file is locked."
                ]
            )
        }

        static func phase(_ event: RunEvent) -> StepPhase? {
            if case .stepFinished(_, _, let phase, _, _) = event { return phase }
            return nil
        }
    }
}
