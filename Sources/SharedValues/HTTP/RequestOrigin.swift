import Diagnostics
import Synchronization

/// Which step of which try of a scenario sent a request. The scenario runner sets it while a step runs
/// (work the step starts in a task inherits it); the object manager sends it to the stub server in a
/// header of its own, which the stub server takes off before anything else sees the request (the journal,
/// `when:`, a recording, the contract), so that a request that breaks the API's document is blamed on the
/// step that sent it.
package struct RequestOrigin: Sendable, Hashable {
    /// The try of the scenario (``RequestOrigin/nextScenarioTry()``), so that a late request of an earlier
    /// try is never blamed on this one's steps.
    package var scenarioTry: UInt64
    /// The step's index among the try's steps (set-up, steps, tear-down).
    package var step: Int

    package init(scenarioTry: UInt64, step: Int) {
        self.scenarioTry = scenarioTry
        self.step = step
    }

    /// The origin of requests sent by the running task.
    @TaskLocal package static var current: RequestOrigin?

    /// The header's name, lower-cased: only between the object manager and the stub server.
    package static let header = "x-scenario-run-origin"

    /// Whether `header` is the origin's (its name compared without case, and without a copy).
    package static func isHeader(_ header: HTTPHeader) -> Bool {
        header.hasName(Self.header)
    }

    /// `TRY.STEP`.
    package var headerValue: String { "\(scenarioTry).\(step)" }

    /// Reads ``headerValue``; `nil` for anything else.
    package init?(headerValue: String) {
        // Read as bytes: two runs of decimal digits around one dot (the stub server reads one a request).
        let bytes = headerValue.utf8
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")),
            let scenarioTry = TextBytes.decimal(bytes[..<dot]),
            let step = TextBytes.decimal(bytes[bytes.index(after: dot)...]).flatMap({ Int(exactly: $0) })
        else { return nil }
        self.init(scenarioTry: scenarioTry, step: step)
    }

    private static let tries = Atomic<UInt64>(0)

    /// A number no earlier try of a scenario in this process had.
    package static func nextScenarioTry() -> UInt64 {
        tries.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
