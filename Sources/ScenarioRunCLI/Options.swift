import ArgumentParser
import Diagnostics
import Foundation
import Scenarios

/// The options every subcommand that loads the project shares.
struct ProjectOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Fixture folder (default: Fixtures/).", valueName: "DIR"))
    var fixtures: String?

    func validate() throws {
        var isFolder: ObjCBool = false
        if let fixtures,
            !FileManager.default.fileExists(atPath: fixtures, isDirectory: &isFolder) || !isFolder.boolValue
        {
            throw ValidationError("--fixtures: there is no folder '\(fixtures)'.")
        }
    }

    /// Settings from `scenario-run.yml` (if present), then the environment, then these options.
    func settings(environment: [String: String]) throws(DiagnosticList) -> RunSettings {
        var settings = RunSettings()
        let file = URL(
            fileURLWithPath: "scenario-run.yml",
            relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        )
        if FileManager.default.fileExists(atPath: file.path) {
            settings = try RunSettings.load(contentsOf: file)
        }
        settings = settings.applying(environment: environment)
        if let fixtures { settings.fixtures = fixtures }
        return settings
    }
}

enum Terminal {
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Colours only on a terminal and never with `NO_COLOR` (any value, per no-color.org).
    static func colors(environment: [String: String]) -> Bool {
        stdoutIsTTY && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    static func printError(_ text: String) {
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: .standardError)
    }

    /// Writes `data`, and says whether it could: a reader that went away (`| head`) is an error to
    /// handle (SIGPIPE is ignored, see ``ScenarioRun``), never a trap.
    @discardableResult
    static func write(_ data: Data, to handle: FileHandle) -> Bool {
        do {
            try handle.write(contentsOf: data)
            return true
        } catch {
            return false
        }
    }

    /// Prints load diagnostics and exits 2, as SPEC.md §3 requires for files that cannot be loaded.
    static func failLoading(_ diagnostics: DiagnosticList) -> ExitCode {
        printError(diagnostics.description)
        let count = diagnostics.total
        printError("\(count.groupedDigits) error\(count == 1 ? "" : "s"); nothing was run.")
        return ExitCode(2)
    }
}

/// Writes to stdout without Foundation's buffering surprises. Once the reader has gone away (`| head`),
/// further output is dropped and the run goes on, so the JUnit file and state are still written.
final class StandardOutput: Sendable {
    func write(_ text: String) {
        Terminal.write(Data(text.utf8), to: .standardOutput)
    }
}
