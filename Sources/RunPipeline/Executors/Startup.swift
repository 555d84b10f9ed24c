package import Diagnostics
import Dispatch
package import Scenarios
package import Steps
package import StubServer

/// The start of a run: loading the scenario files and starting the stub server, side by side.
package enum Startup {
    /// Loads the scenario files on a thread of their own while `server` (if any) starts on the caller's
    /// executor: on two cores the two overlap, and together they are most of the time from launch to
    /// the first scenario. Load errors win: the server is stopped again and the diagnostics thrown.
    ///
    /// `keepingActions: false` when other processes run the scenarios (``ScenarioLoader/keepsActions``).
    ///
    /// - Returns: the scenarios, and how the server's start went (`nil` when there was no server).
    package static func load(
        _ suite: ScenarioSuite,
        paths: [String],
        keepingActions: Bool = true,
        startingMeanwhile server: StubServer?
    ) async throws(DiagnosticList) -> (scenarios: [Scenario], serverStart: Result<Void, any Error>?) {
        let start = server.map { server in Task { _ = try await server.start() } }
        let loaded = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<[Scenario], DiagnosticList>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result { () throws(DiagnosticList) in
                        try suite.loadScenarios(paths: paths, keepingActions: keepingActions)
                    }
                )
            }
        }
        let started = await start?.result
        switch loaded {
        case .success(let scenarios):
            return (scenarios, started)
        case .failure(let diagnostics):
            await server?.stop()  // whether or not it started: stopping is safe in every state
            throw diagnostics
        }
    }
}
