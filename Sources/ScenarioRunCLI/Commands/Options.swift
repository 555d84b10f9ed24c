import ArgumentParser
import Diagnostics
import Foundation
import RunPipeline
import Scenarios
import Steps

/// The options every subcommand that loads the project shares.
struct ProjectOptions: ParsableArguments {
    @Option(
        name: [.customShort("C"), .customLong("project")],
        help: ArgumentHelp(
            "Run in DIR: every relative path (scenarios, fixtures, settings, .scenario-run/, --junit) is read from it.",
            discussion: """
                As `git -C` does: the scenario paths, `Scenarios/`, `Fixtures/`, `scenario-run.yml`, \
                `.scenario-run/`, the kept store, `--fixtures`, `--junit`, `--events` and `--shard-timings` are read \
                from DIR. A folder that is not there is named with the folder it was looked for in.
                """,
            valueName: "DIR"
        )
    )
    var projectDirectory: String?

    @Option(name: .long, help: ArgumentHelp("Fixture folder (default: Fixtures/).", valueName: "DIR"))
    var fixtures: String?

    func validate() throws {
        if let projectDirectory, !Self.isFolder(projectDirectory) {
            throw ValidationError(
                "--project: there is no folder '\(projectDirectory)' (looked in \(FileManager.default.currentDirectoryPath))."
            )
        }
        if let fixtures, !Self.isFolder(resolved(fixtures)) {
            throw ValidationError("--fixtures: there is no folder '\(fixtures)' (looked in \(directory.path)).")
        }
    }

    /// The project's folder: `--project`, else the current folder.
    var directory: URL {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard let projectDirectory else { return current }
        return URL(fileURLWithPath: projectDirectory, isDirectory: true, relativeTo: current).standardizedFileURL
    }

    /// `path` as read from the project's folder (before ``enter()`` has made it the current one).
    func resolved(_ path: String) -> String {
        path.hasPrefix("/") ? path : directory.appendingPathComponent(path).path
    }

    /// Makes the project's folder the current one, so that every relative path — and every worker
    /// process, which inherits it — reads from it.
    func enter() throws {
        guard projectDirectory != nil else { return }
        guard FileManager.default.changeCurrentDirectoryPath(directory.path) else {
            Terminal.printError("error: --project: cannot enter '\(directory.path)'.")
            throw ExitCode(2)
        }
    }

    /// `--target URL` of `verify` and `record`, `--record URL` of a run: an http or https URL with a host.
    static func validateTarget(_ target: String, option: String = "--target") throws {
        guard let url = URL(string: target), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else {
            throw ValidationError("\(option) takes an http or https URL, like https://staging.example.com/api.")
        }
        // A URL's user name and password would be printed and written where the target is named (the
        // summary, server.yml's comment), and are not sent: credentials travel as the app's own headers.
        guard url.user == nil, url.password == nil else {
            throw ValidationError(
                "\(option) takes a URL without a user name or password (the URL is printed and written down). "
                    + "Send credentials as a header: verify's --header, or, when recording, the app's own "
                    + "Authorization header (forwarded, never written)."
            )
        }
    }

    /// `SSL_CERT_FILE`, as OpenSSL and curl read it: the PEM certificates an https target (`record`, `--record`, `verify`) is verified
    /// against instead of the system's. A file that cannot be read is a usage error, said before any request.
    static func trustedCertificates(environment: [String: String]) throws -> String? {
        guard let path = environment["SSL_CERT_FILE"], !path.isEmpty else { return nil }
        guard FileManager.default.isReadableFile(atPath: path) else {
            Terminal.printError("error: SSL_CERT_FILE names '\(path)', which cannot be read.")
            throw ExitCode(2)
        }
        return path
    }

    private static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Settings from `scenario-run.yml` (if present), then the environment, then these options.
    func settings(environment: [String: String]) throws(DiagnosticList) -> RunSettings {
        var settings = RunSettings()
        let file = URL(
            fileURLWithPath: "scenario-run.yml",
            relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        )
        if FileManager.default.fileExists(atPath: file.path) {
            // With the default steps it names, so that all of the file's errors come in one round.
            settings = try ScenarioSuite.loadSettings(
                contentsOf: file,
                app: RootCommand.appUnderTest,
                directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            )
        }
        settings = settings.applying(environment: environment)
        if let fixtures { settings.fixtures = fixtures }
        return settings
    }
}

extension Terminal {
    /// Prints load diagnostics and exits 2, as SPEC.md §3 requires for files that cannot be loaded.
    static func failLoading(_ diagnostics: DiagnosticList) -> ExitCode {
        printError(loadErrors(diagnostics, then: "nothing was run."))
        return ExitCode(2)
    }

    /// The diagnostics and their count — every error, also those past the ones kept — then what follows.
    static func loadErrors(_ diagnostics: DiagnosticList, then consequence: String) -> String {
        let count = diagnostics.total
        return diagnostics.description + "\n\(count.groupedDigits) error\(count == 1 ? "" : "s"); \(consequence)"
    }
}

/// Writes to stdout without Foundation's buffering surprises. Once the reader has gone away (`| head`),
/// further output is dropped and the run goes on, so the JUnit file and state are still written.
final class StandardOutput: Sendable {
    func write(_ text: String) {
        Terminal.write(text, to: .standardOutput)
    }
}
