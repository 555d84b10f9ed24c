package import Diagnostics
import Foundation
package import SharedValues

/// One entry of `server.yml`, or a scenario's own stub: which requests it answers and how.
///
/// ```swift
/// ServerRoute(path: "/review", method: "POST", status: 201, content: .fixture("review.json"))
/// ```
///
/// A request is answered by a route when its method and path match, the scenario is in the route's
/// `state` (if it names one) and every condition of `when:` holds. The answer is `answer`, or with
/// `responses:` the one for this hit: one per request in order, then the last again (or, with `then:
/// cycle`, from the first).
package struct ServerRoute: Sendable, Equatable {
    /// What a route answers with.
    package typealias Content = StubAnswer.Content

    /// The path pattern, with `:name` parameters.
    package var path: PathPattern
    /// The upper-cased method, or `nil` for any method.
    package var method: String?
    /// What the request must hold besides method and path (`when:`).
    package var conditions: RequestConditions
    /// The state the scenario must be in for this route to answer (`state:`), or `nil` for any.
    package var state: String?
    /// The state the scenario moves to once this route answered (`then state:`).
    package var nextState: String?
    /// The answer of a route without `responses:`.
    package var answer: StubAnswer
    /// The answers in order (`responses:`); empty for a route with one answer.
    package var responses: [StubAnswer]
    /// Whether `responses:` start over after the last one (`then: cycle`) instead of repeating it.
    package var cycles: Bool
    /// Where the route was written, when it came from a file.
    package var location: SourceLocation?
    /// Whether the route is part of the API the OpenAPI document describes (`contract: off` says it is a
    /// test-only route, such as a fault or a slow path): `check` does not hold it to the document, and a
    /// request it answered is not held to it during a run.
    package var heldToContract = true

    package init(
        path: String,
        method: String? = nil,
        status: Int = 200,
        content: Content = .none,
        headers: [HTTPHeader] = [],
        delay: Duration? = nil,
        fault: StubFault? = nil,
        conditions: RequestConditions = RequestConditions(),
        state: String? = nil,
        nextState: String? = nil,
        responses: [StubAnswer] = [],
        cycles: Bool = false,
        location: SourceLocation? = nil
    ) {
        self.path = PathPattern(path)
        self.method = method.flatMap { $0 == "*" ? nil : $0.uppercased() }
        self.answer = StubAnswer(status: status, content: content, headers: headers, delay: delay, fault: fault)
        self.conditions = conditions
        self.state = state
        self.nextState = nextState
        self.responses = responses
        self.cycles = cycles
        self.location = location
    }

    /// The response status of `answer`.
    package var status: Int {
        get { answer.status }
        set { answer.status = newValue }
    }

    /// The body of `answer`.
    package var content: Content {
        get { answer.content }
        set { answer.content = newValue }
    }

    /// Extra response headers of `answer`; these win over the inferred `Content-Type`.
    package var headers: [HTTPHeader] {
        get { answer.headers }
        set { answer.headers = newValue }
    }

    /// How long `answer` waits before answering.
    package var delay: Duration? {
        get { answer.delay }
        set { answer.delay = newValue }
    }

    /// A connection-level failure instead of `answer`.
    package var fault: StubFault? {
        get { answer.fault }
        set { answer.fault = newValue }
    }

    /// The answer to the route's `hit`th request of the scenario (from 1).
    package func answer(forHit hit: Int) -> StubAnswer {
        guard !responses.isEmpty else { return answer }
        let index = max(0, hit - 1)
        return responses[cycles ? index % responses.count : min(index, responses.count - 1)]
    }

    /// Whether this route answers `method` (case-insensitive).
    func accepts(method requestMethod: String) -> Bool {
        guard let method else { return true }
        return method == requestMethod.uppercased()
    }

    /// `GET /restaurants/:restaurantID` (`*` for any method).
    package var summary: String {
        "\(method ?? "*") \(path.rawValue)"
    }

    /// `Fixtures/server.yml:9`, or the summary for a route built in code.
    package var place: String {
        location.map { "\($0.file):\($0.line)" } ?? summary
    }
}
