import ArgumentParser
import RunPipeline

/// `scenario-run worker` (hidden) — one worker process of a run: `WorkerMain` with this program's app.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "One worker process of a parallel run (started by scenario-run --jobs).",
        shouldDisplay: false
    )

    @Option var board: String?

    @Option var slot: Int = 0

    func run() async throws {
        let status = try await WorkerMain.run(app: RootCommand.appUnderTest, board: board, slot: slot)
        if status != 0 { throw ExitCode(status) }
    }
}
