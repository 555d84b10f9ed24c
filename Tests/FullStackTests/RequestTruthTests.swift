import Diagnostics
import ExampleApp
import Foundation
import ObjectManager
import Scenarios
import Steps
import Testing

extension FullStack {
    /// Request steps tell the truth (SPEC §14): a request that cannot be built fails its step at once with
    /// the reason, parameters reach the query, the log says what mapping did, JSON differences are located.
    @Suite struct RequestTruthTests {
        /// The failing step's reason, whether it waited at all, and how long it took.
        private func firstFailure(_ outcome: StepHarness.Outcome) -> (reason: String, waited: Bool, took: Duration)? {
            for event in outcome.events {
                guard case .stepFinished(let id, let index, _, .failed(let reason, _), let took) = event else {
                    continue
                }
                let waited = outcome.events.contains { event in
                    if case .stepWaiting(id, index, _, _) = event { return true }
                    return false
                }
                return (reason, waited, took)
            }
            return nil
        }

        /// Issue 27: `expect response` judged the request that finished last: a slow 200 sent first and a
        /// fast 422 sent after it passed `status: 200`. It judges the request sent last.
        @Test func expectResponseJudgesTheRequestSentLastNotTheOneThatFinishedLast() async throws {
            let harness = try StepHarness()
            let last = try await harness.run(
                steps: """
                    - get objects: { path: /slow }
                    - get objects: { path: /422 }
                    - expect response: { status: 422 }
                    """
            )
            #expect(last.summary.failed == 0, "\(last.failures)")
            let slow = try await harness.run(
                steps: """
                    - get objects: { path: /slow }
                    - get objects: { path: /422 }
                    - expect response: { status: 200 }
                      timeout: 5
                    """
            )
            #expect(slow.summary.failed == 1)
            #expect(slow.failures.first?.contains("has status 422, expected 200") == true, "\(slow.failures)")
        }

        static let unbuildable: [(String, String, String)] = [
            (
                "put object: a bound object without its ID",
                """
                - insert entity: { entity: Review, attributes: { title: Draft }, as: draft }
                - put object: { object: draft }
                """,
                "No value for ':reviewID' in /reviews/:reviewID."
            ),
            (
                "post object: a new object without the ID its route needs",
                "- post object: { class: Review, attributes: { title: Orphan } }",
                "No value for ':restaurantID' in /restaurants/:restaurantID/reviews."
            ),
            (
                "delete object: a bound object without its ID",
                """
                - insert entity: { entity: Review, attributes: { title: Draft }, as: draft }
                - delete object: { object: draft }
                """,
                "No value for ':reviewID' in /reviews/:reviewID."
            ),
            (
                "get objects: a relationship of an object without its ID",
                """
                - insert entity: { entity: Restaurant, attributes: { name: Nameless }, as: place }
                - get objects: { relationship: reviews, of: place }
                """,
                "No value for ':restaurantID' in /restaurants/:restaurantID/reviews."
            ),
            (
                "get objects: a relationship with no route",
                """
                - create from factory: { factory: restaurant, as: place }
                - get objects: { relationship: owner, of: place }
                """,
                "The route set has no relationship route 'owner' of Restaurant GET."
            ),
            (
                "get objects: a named route whose placeholder parameter is empty",
                """
                - get objects: { route: restaurant, parameters: { restaurantID: "" } }
                """,
                "No value for ':restaurantID' in /restaurants/:restaurantID."
            ),
        ]

        @Test(arguments: unbuildable.map(\.0))
        func aRequestThatCannotBeBuiltFailsItsStepAtOnce(_ name: String) async throws {
            let (_, steps, reason) = try #require(Self.unbuildable.first { $0.0 == name })
            let outcome = try await StepHarness().run(steps: steps)
            #expect(outcome.summary.failed == 1, "\(name)")
            let failure = try #require(firstFailure(outcome), "\(name)")
            #expect(failure.reason.hasPrefix(reason), "\(failure.reason)")
            #expect(!failure.waited, "it failed on its first attempt")
            // Well within the harness's 5 s step timeout, which a step that retried would wait out; the
            // margin is for a loaded machine (a 100 ms bound was too tight for one, 2 s a risk).
            #expect(failure.took < .seconds(4), "\(failure.took)")
            #expect(!outcome.logs.contains { $0.contains(" → ") }, "nothing was sent: \(outcome.logs)")
        }

        @Test func checkReportsANamedRouteWhosePlaceholderTheStepCannotFill() throws {
            let harness = try StepHarness()
            #expect {
                _ = try harness.load(
                    """
                    scenarios:
                      - scenario: Detail
                        steps:
                          - get objects: { route: restaurant, parameters: { restaurantId: 12 } }
                    """
                )
            } throws: { error in
                (error as? DiagnosticList)?.diagnostics.first?.description.hasPrefix(
                    "inline.yml:4:55: error: Route 'restaurant' (/restaurants/:restaurantID) needs a value for "
                        + "':restaurantID': give it in 'parameters', like 'parameters: { restaurantID: … }'. "
                        + "'parameters' has 'restaurantId'."
                ) == true
            }
        }

        @Test func parametersFillPlaceholdersAndTheRestBecomeTheQuery() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - create from factory: { factory: restaurant, as: place, properties: { restaurantID: 12 } }
                    - get objects: { route: restaurant, parameters: { restaurantID: "${place.restaurantID}", include: "reviews & more" } }
                    - expect response: { status: 200 }
                    - get objects: { path: /restaurants, parameters: { page: 2 } }
                    - expect response: { status: 200 }
                    """
            )
            #expect(outcome.failures == [])
            #expect(outcome.logs.contains { $0.hasPrefix("GET /restaurants/12?include=reviews%20%26%20more → 200") })
            #expect(
                outcome.logs.contains { $0.hasPrefix("GET /restaurants?page=2 → 200 (5 objects)") },
                "\(outcome.logs)"
            )
        }

        @Test func theSwiftAPISendsLeftoverParametersAsTheQuery() async throws {
            let stack = try await LiveStack.start()
            let request = try stack.manager.request(
                forRouteNamed: "restaurant",
                parameters: ["restaurantID": "7", "q": "a b"]
            )
            #expect(request.url.absoluteString.hasSuffix("/restaurants/7?q=a%20b"))
            #expect {
                _ = try stack.manager.request(forRouteNamed: "restaurant")
            } throws: { error in
                (error as? ObjectManagerError)?.description
                    == "No value for ':restaurantID' in /restaurants/:restaurantID."
            }
            try await stack.stop()
        }

        @Test func theRequestLogSaysWhatMappingDid() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - get objects: { route: restaurants }
                    - wait for requests
                    - stub route: { name: restaurants, to: /slow }
                    - get objects: { route: restaurants }
                    - wait for requests
                    """
            )
            #expect(outcome.failures == [])
            #expect(outcome.logs.contains("GET /restaurants → 200 (20 objects)"), "\(outcome.logs)")
            #expect(
                outcome.logs.contains("GET /slow → 200 (no response descriptor matches GET /slow; nothing mapped)"),
                "\(outcome.logs)"
            )
        }

        @Test func aJSONExpectationNamesItsFirstDifference() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - get objects: { route: restaurants }
                    - expect response: { json: [ { id: 1 } ] }
                    """
            )
            let failure = try #require(firstFailure(outcome))
            #expect(failure.reason.hasPrefix("The last response's JSON differs at $: 20 elements, expected 1 (gave up"))
        }

        @Test func jsonIncludesMatchesArrayElementsInAnyOrder() async throws {
            let outcome = try await StepHarness().run(
                steps: """
                    - get objects: { route: restaurants }
                    - expect response: { json includes: [ { id: 3, cuisine: Japanese }, { id: 1, name: Chez Swift } ] }
                    """
            )
            #expect(outcome.failures == [])
            let missing = try await StepHarness().run(
                steps: """
                    - get objects: { route: restaurants }
                    - expect response: { json includes: [ { id: 3, cuisine: French } ] }
                    """
            )
            let failure = try #require(firstFailure(missing))
            #expect(
                failure.reason.hasPrefix(
                    "The last response's JSON differs at $: no element matches {\"cuisine\":\"French\",\"id\":3} (20 elements)"
                ),
                "\(failure.reason)"
            )
        }

        @Test func waitForNotificationSeesOnePostedByThePreviousStep() async throws {
            // `stub reachability` posts the change notification before it returns.
            let outcome = try await StepHarness().run(
                steps: """
                    - stub reachability: reachable via wwan
                    - wait for notification: reachability changed
                    """
            )
            #expect(outcome.failures == [])
        }

        @Test func aBoundObjectsAttributeIsCheckedAtLoadWithASuggestion() throws {
            let harness = try StepHarness()
            #expect {
                _ = try harness.load(
                    """
                    scenarios:
                      - scenario: Typo
                        steps:
                          - create from factory: { factory: restaurant, as: place }
                          - get objects: { path: "/restaurants/${place.restaurantId}" }
                          - get objects: { path: "/restaurants/${plcae.restaurantID}" }
                    """
                )
            } throws: { error in
                let messages = (error as? DiagnosticList)?.diagnostics.map(\.message) ?? []
                return messages == [
                    "'place' (a Restaurant) has no attribute or relationship 'restaurantId' in "
                        + "'${place.restaurantId}'. Did you mean 'restaurantID'?",
                    "Unbound name 'plcae' in '${plcae.restaurantID}'; bind it with 'as: plcae' on an earlier step. "
                        + "Did you mean 'place'?",
                ]
            }
        }
    }
}
