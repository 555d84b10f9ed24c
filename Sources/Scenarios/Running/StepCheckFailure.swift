/// Why a step that passed fails after all (``ScenarioRunner``'s step check), and which step caused it when
/// that is known: a request that breaks the API's document, sent by that step or by work it started.
package struct StepCheckFailure: Sendable, Equatable {
    package var reason: String
    /// The index, among the try's steps, of the step that sent the failing request; `nil` when unknown.
    package var sender: Int?

    package init(reason: String, sender: Int? = nil) {
        self.reason = reason
        self.sender = sender
    }
}
