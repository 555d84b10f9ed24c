import Diagnostics
import Foundation
import RunPipeline
import ScenarioRunCLI
import Scenarios
import Testing

/// A worker gets the run the parent resolved, whole: every setting arrives as it was sent.
struct WorkerRunTests {
    /// Every field of the settings set away from its default survives the channel's line — and a field
    /// added later is in the line by construction (the settings are sent whole, not as options).
    @Test func everySettingReachesTheWorker() throws {
        var settings = RunSettings()
        settings.stepTimeout = .milliseconds(2_500)
        settings.cancellationGrace = .seconds(3)
        settings.scenarioTimeout = .seconds(40)
        settings.repetitions = 3
        settings.retries = 2
        settings.retryInterval = .milliseconds(20)
        settings.settleTime = nil
        settings.defaultSetUp = ["launch"]
        settings.defaultTearDown = ["quit", "wipe"]
        settings.fixtures = "Stubs"
        settings.scenarios = "Features"
        settings.exclude = ["Features/wip"]
        settings.skipTearDown = true
        settings.failFast = true
        settings.filter = "(?i)login"
        settings.leaks = .warn
        settings.unmatchedRequests = .fail
        settings.openapi = "api/openapi.yaml"
        settings.contract = .warn
        settings.htmlReport = "report.html"
        settings.requestLog = true
        let place = SourceLocation(file: "scenario-run.yml", line: 3, column: 5)
        settings.defaultSetUpSources = [Diagnostic.Source(location: place, sourceLine: "  - launch")]
        settings.defaultTearDownSources = [Diagnostic.Source(location: place, sourceLine: nil)]
        // Every field away from its default: a field added later fails here until it is set above.
        for (set, initial) in zip(Mirror(reflecting: settings).children, Mirror(reflecting: RunSettings()).children) {
            #expect("\(set.value)" != "\(initial.value)", "\(set.label ?? "?") is left at its default")
        }
        let run = WorkerRun(
            paths: ["Features/a.yml:12", "Features/b"],
            settings: settings,
            liveEvents: true,
            board: "/dev/shm/b",
            slot: 3,
            directory: "/projects/app"
        )
        let line = try run.line()
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil)

        var pipe: [Int32] = [0, 0]
        #expect(
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipe) == 0,
            "close on exec, at once: a process another test starts meanwhile must not hold the writing end"
        )
        defer { close(pipe[0]) }
        let after = Data("#2 abc\n0\n".utf8)
        let written = (line + after).withUnsafeBytes { write(pipe[1], $0.baseAddress, $0.count) }
        #expect(written == line.count + after.count)
        close(pipe[1])
        let (read, rest) = try WorkerRun.read(from: pipe[0])
        #expect(read == run)
        #expect(rest == after, "what follows the run's line is the scenarios' input")
    }

    /// A channel that ends before the run's line, or holds no run, is an error in words, not a hang.
    @Test func aMissingOrDamagedRunIsAnError() throws {
        for text in ["", "{\"paths\": 3}\n"] {
            var pipe: [Int32] = [0, 0]
            #expect(
                socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipe) == 0,
                "close on exec, at once: a process another test starts meanwhile must not hold the writing end"
            )
            defer { close(pipe[0]) }
            _ = Data(text.utf8).withUnsafeBytes { write(pipe[1], $0.baseAddress, $0.count) }
            close(pipe[1])
            #expect(throws: WorkerRunError.self) { _ = try WorkerRun.read(from: pipe[0]) }
        }
    }
}
