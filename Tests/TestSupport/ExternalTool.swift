import Foundation

/// The tools some tests drive (tmux, sqlite3, python3's junitparser), found as a user's shell finds them:
/// on `PATH`. Where one is missing the test skips, naming it; `SCENARIO_RUN_REQUIRE_TOOLS=1` (CI sets it)
/// runs the test anyway, so that there a missing tool fails instead of skipping.
public enum ExternalTool {
    /// Whether missing tools must fail the tests that need them instead of skipping them.
    public static var required: Bool { ProcessInfo.processInfo.environment["SCENARIO_RUN_REQUIRE_TOOLS"] == "1" }

    /// The executable `name` on `PATH`, if any.
    public static func path(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether a test needing `name` runs: it is there, or tools are required.
    public static func available(_ name: String) -> Bool {
        required || path(name) != nil
    }

    /// Whether `python3 -c "import MODULE"` succeeds (python3 found on `PATH`), or tools are required.
    public static func pythonModuleAvailable(_ module: String) -> Bool {
        if required { return true }
        guard let python = path("python3") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
