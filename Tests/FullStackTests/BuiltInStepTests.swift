import Diagnostics
import ExampleApp
import Foundation
import ObjectManager
import Scenarios
import Steps
import TestSupport
import Testing

extension FullStack {
    /// Every built-in step of SPEC.md §7 against the live stub server, through the loader and runner.
    @Suite struct BuiltInStepTests {
        /// Scenarios that must pass: each exercises one step (and the expectations that prove it acted).
        static let passing: [(String, String)] = [
            (
                "stub route (class)",
                """
                - stub route: { class: Review, method: POST, to: /review }
                - post object: { class: Review, attributes: { restaurantID: 1, title: x } }
                - expect request: { method: POST, path: /review, count: 1 }
                """
            ),
            (
                "stub route (relationship)",
                """
                - create from factory: { factory: restaurant, as: place }
                - stub route: { relationship: reviews, class: Restaurant, method: GET, to: /restaurants }
                - get objects: { relationship: reviews, of: place }
                - expect request: { path: /restaurants, count: 1 }
                """
            ),
            (
                "stub route (named)",
                """
                - stub route: { name: restaurants, to: "/articles/a/1" }
                - get objects: { route: restaurants }
                - expect response: { status: 200, json: { article: { author: Blake Watters } } }
                """
            ),
            (
                "suspend queue true then false resumes",
                """
                - suspend queue: true
                - get objects: { path: /restaurants }
                - expect pending requests: 1
                - expect request: { count: 0 }
                - suspend queue: false
                - wait for requests
                - expect request: { path: /restaurants, count: 1 }
                """
            ),
            (
                "stub reachability and expect reachability",
                """
                - expect reachability: reachable via wifi
                - stub reachability: Reachable via WWAN
                - expect reachability: reachable via wwan
                - stub reachability: not reachable
                - expect reachability: not reachable
                """
            ),
            (
                "cache response with data and with a fixture",
                """
                - cache response: { path: /a, data: { x: 1 } }
                - cache response: { path: /b, method: GET, fixture: article.json, status: 200, headers: { X-Cached: yes } }
                - expect cached response: { path: /a }
                - expect cached response: { path: /b, method: GET }
                - stub reachability: not reachable
                - get objects: { path: /b }
                - expect response: { status: 200, body contains: RestKit Unit Testing }
                - expect request: { count: 0 }
                """
            ),
            (
                "create from factory with properties and a binding",
                """
                - create from factory: { factory: restaurant, properties: { restaurantID: 7, name: Seven }, as: seven }
                - insert entity: { entity: Review, attributes: { reviewID: 70, title: "For ${seven.name}", restaurantID: "${seven.restaurantID}" } }
                - expect entities: { entity: Review, count: 1, where: { title: For Seven, restaurantID: 7 } }
                """
            ),
            (
                "create from factories",
                """
                - create from factories: [restaurant, user]
                - expect entities: { entity: Restaurant, count: 1 }
                - expect entities: { entity: User, count: 1, where: { name: Blake Watters } }
                """
            ),
            (
                "insert entity unsaved is visible to the main context",
                """
                - insert entity: { entity: User, attributes: { userID: 3, name: Ada }, save: false }
                - expect entities: { entity: User, count: 1 }
                """
            ),
            (
                "delete entities of one entity and all",
                """
                - insert entity: { entity: User, attributes: { userID: 3, name: Ada } }
                - insert entity: { entity: Restaurant, attributes: { restaurantID: 3, name: R } }
                - delete entities: { entity: User }
                - expect entities: { entity: User, count: 0 }
                - expect entities: { entity: Restaurant, count: 1 }
                - delete entities: all
                - expect entities: { entity: Restaurant, count: 0 }
                """
            ),
            (
                "get objects by route, path and relationship",
                """
                - get objects: { route: restaurants }
                - get objects: { path: /articles/x/1 }
                - create from factory: { factory: restaurant, as: place }
                - get objects: { relationship: reviews, of: place }
                - wait for requests
                - expect request: { method: GET, count: 3 }
                - expect entities: { entity: Review, count: 2, where: { restaurantID: 12345 } }
                """
            ),
            (
                "post, put and delete object",
                """
                - post object: { class: Review, attributes: { restaurantID: 5, title: New } }
                - expect response: { status: 201, json: { id: 1 } }
                - insert entity: { entity: Review, attributes: { reviewID: 9, title: Old, restaurantID: 5 }, as: old }
                - put object: { object: old }
                - expect response: { status: 200 }
                - expect request: { method: PUT, path: /reviews/9, json: { review: { title: Old } } }
                - delete object: { object: old }
                - expect response: { status: 204 }
                - expect request: { method: DELETE, path: /reviews/9 }
                """
            ),
            (
                "expect response with an error",
                """
                - get objects: { path: /error }
                - expect response: { status: 400, error: An error occurred!!, json: { error: An error occurred!! } }
                """
            ),
            (
                "wait, succeed and wait for requests",
                """
                - wait: 0.01
                - succeed: fine
                - wait for requests
                """
            ),
        ]

        @Test(arguments: passing.map(\.0)) func stepPasses(_ name: String) async throws {
            let steps = try #require(Self.passing.first { $0.0 == name }?.1)
            let outcome = try await StepHarness().run(steps: steps)
            #expect(outcome.failures == [], "\(name)")
            #expect(outcome.summary.passed == 1)
        }

        /// Numbers, durations and true/false of built-in steps written as `${…}` are converted when the step
        /// runs, by the same declarations as an app step's arguments (docs/steps.md), not refused at load.
        @Test func builtInNumbersWrittenAsReferencesAreConvertedWhenTheStepRuns() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - insert entity: { entity: User, attributes: { userID: 201, name: Ada }, as: created }
                    - insert entity: { entity: User, attributes: { userID: 0, name: "true" }, as: zero }
                    - create from factory: { factory: user, as: one }
                    - stub route: { class: Review, method: POST, to: /review }
                    - post object: { class: Review, attributes: { restaurantID: 1, title: x } }
                    - expect response: { status: "${created.userID}" }
                    - expect request: { method: POST, path: /review, count: "${one.userID}" }
                    - expect request: { method: POST, at least: "${one.userID}", at most: "${one.userID}" }
                    - expect request: { method: DELETE, at most: "${zero.userID}" }
                    - expect entities: { entity: User, count: "${one.userID}", where: { name: Ada } }
                    - suspend queue: "${zero.name}"
                    - get objects: { path: /restaurants }
                    - expect pending requests: "${one.userID}"
                    - suspend queue: false
                    - wait for requests
                    - expect pending requests: "${zero.userID}"
                    - insert entity: { entity: User, attributes: { userID: 3, name: Saved }, save: "${zero.name}" }
                    - expect entities: { entity: User, count: "${one.userID}", where: { name: Saved } }
                    - cache response: { path: /a, data: { who: "${one.name}" }, status: "${created.userID}", headers: { X-Who: "${one.name}" } }
                    - expect cached response: { path: /a }
                    - wait: "${zero.userID}"
                    """
            )
            #expect(outcome.failures == [])
            #expect(outcome.summary.passed == 1)
        }

        /// A `${…}` that is not a number when the step runs fails the step at the argument, in the words of an
        /// app step's argument.
        @Test func aBuiltInNumberThatIsNotANumberWhenTheStepRunsFailsAtItsLocation() async throws {
            let harness = try StepHarness()
            let integer = "takes an integer from 0 to 1000000, not 'Blake Watters' (from '${one.name}')."
            for (step, failure) in [
                (
                    #"expect entities: { entity: User, count: "${one.name}" }"#,
                    "inline.yml:5:49: 'count' of step 'expect entities' " + integer
                ),
                (
                    #"expect request: { at most: "${one.name}" }"#,
                    "inline.yml:5:36: 'at most' of step 'expect request' " + integer
                ),
                (
                    #"wait: "${one.name}""#,
                    "inline.yml:5:15: Step 'wait' takes a number of seconds from 0 to 86400 (a day), not 'Blake Watters' "
                        + "(from '${one.name}')."
                ),
            ] {
                let outcome = try await harness.run(
                    steps: "- create from factory: { factory: user, as: one }\n- \(step)"
                )
                #expect(outcome.failures == [failure], "\(step)")
            }
        }

        @Test func waitForNotificationSeesANotificationPostedAfterItStarts() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - stub route: { class: Review, method: POST, to: /slow-review }
                    - submit review: { restaurant: 1, title: Slow }
                    - wait for notification: ReviewComposerDidSendReview
                    - expect composer: { status: sent }
                    """
            )
            #expect(outcome.failures == [])
        }

        @Test func expectationsThatCannotComeTrueGiveUpAfterTheSettleTimeWithTheReason() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - get objects: { path: /offline }
                    - expect response: { status: 200 }
                    """
            )
            #expect(outcome.summary.failed == 1)
            let reason = try #require(outcome.failures.first)
            #expect(
                reason.hasPrefix(
                    "The last response (GET /offline → 503 (The server answered 503.)) has status 503, expected 200 "
                        + "(gave up after "
                ),
                "\(reason)"
            )
            let gaveUp = try #require(gaveUpEarly(reason), "\(reason)")
            #expect(gaveUp.timeout == 5.0 && gaveUp.waited >= 0.5 && gaveUp.waited < gaveUp.timeout, "\(reason)")
            #expect(reason.hasSuffix("nothing was running and nothing changed for 0.5 s)"), "\(reason)")
        }

        @Test func failStepFailsWithItsReasonAndTearDownStillRuns() async throws {
            let outcome = try await StepHarness().run(steps: "- fail: Because\n- succeed: never")
            #expect(outcome.failures == ["Because"])
            let tearDown = outcome.events.contains { event in
                if case .stepFinished(_, _, .tearDown, .passed, _) = event { return true }
                return false
            }
            #expect(tearDown)
            #expect(ObjectManager.shared == nil)
        }

        @Test func deleteEntitiesSavesSoAFreshReadSeesNothing() async throws {
            let harness = try StepHarness()
            let outcome = try await harness.run(
                "delete saves",
                steps: [
                    .insertEntity("User", attributes: ["userID": 1, "name": "Ada"]),
                    .deleteEntities("User"),
                    Step("a fresh read of the database sees no User") { _ in
                        let saved = try EntityStore.defaultStore?.countSaved("User")
                        return saved == 0 ? .success : .failure("\(saved ?? -1) saved")
                    },
                ]
            )
            #expect(outcome.failures == [])
        }

        @Test func swiftFactoriesReadAsSentences() async throws {
            let harness = try StepHarness()
            let outcome = try await harness.run(
                "swift steps",
                steps: [
                    .stubRoute(forClass: "Review", method: .post, toPathPattern: "/422"),
                    .createObject(
                        fromFactory: "restaurant",
                        properties: ["name": "Bistro"],
                        configuration: { object in
                            try object.setValue("Thai", forAttribute: "cuisine")
                        }
                    ),
                    .performAndSave { context in
                        _ = try context.insert(entity: "User", attributes: ["userID": 2, "name": "Grace"])
                    },
                    .sendObject(
                        .new(entity: "Review", attributes: ["restaurantID": 12345, "title": "x"]),
                        method: .post
                    ),
                    .expectResponse(status: 422, error: "Invalid object."),
                    .expectEntities("Restaurant", count: 1, where: ["cuisine": "Thai", "name": "Bistro"]),
                    .expectEntities("User", count: 1),
                    .expectEntities("Review", count: 0),
                ]
            )
            #expect(outcome.failures == [])
            #expect(outcome.logs.contains("POST /422 → 422 (Invalid object.)"))
        }

        @Test func stubbingARouteTheRouteSetLacksIsALoadError() throws {
            let harness = try StepHarness()
            let error = try #require(throws: DiagnosticList.self) {
                try harness.load(
                    """
                    scenarios:
                      - scenario: bad
                        steps:
                          - stub route: { class: Review, method: PATCH, to: /x }
                          - insert entity: { entity: Reveiw }
                          - create from factory: { factory: resturant }
                          - cache response: { path: /x, fixture: nope.json }
                    """
                )
            }
            #expect(
                error.description == """
                    inline.yml:4:30: error: Unknown class route 'Review PATCH'. Did you mean 'Review PUT' or 'Review POST'?
                          - stub route: { class: Review, method: PATCH, to: /x }
                                                 ^
                    inline.yml:5:34: error: Unknown entity 'Reveiw'. Did you mean 'Review'?
                          - insert entity: { entity: Reveiw }
                                                     ^
                    inline.yml:6:41: error: Unknown factory 'resturant'. Did you mean 'restaurant'?
                          - create from factory: { factory: resturant }
                                                            ^
                    inline.yml:7:46: error: Fixture 'nope.json' not found in 'Fixtures'.
                          - cache response: { path: /x, fixture: nope.json }
                                                                 ^
                    """
            )
        }
    }
}
