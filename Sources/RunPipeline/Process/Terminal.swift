package import Foundation

/// This process's standard streams as the runner writes them: errors in words, and output that a
/// reader that went away (`| head`) cannot turn into a trap.
package enum Terminal {
    package static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Colours only on a terminal and never with `NO_COLOR` (any value, per no-color.org).
    package static func colors(environment: [String: String]) -> Bool {
        stdoutIsTTY && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    package static func printError(_ text: String) {
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: .standardError)
    }

    /// Writes `data`, and says whether it could: a reader that went away (`| head`) is an error to
    /// handle (SIGPIPE is ignored: `ScenarioRun.main`), never a trap.
    @discardableResult
    package static func write(_ data: some DataProtocol, to handle: FileHandle) -> Bool {
        do {
            try handle.write(contentsOf: data)
            return true
        } catch {
            return false
        }
    }
}
