import Foundation
import TestSupport
import Testing

/// What loading must not skip or blow up on: folders the user cannot read, file names that are not
/// UTF-8, many errors on one long line, a large scalar aliased many times.
struct LoadFaultTests {
    static let scenario = "scenarios:\n  - scenario: A\n    steps: [succeed]\n"

    /// The tests run as root, which reads every folder whatever its mode: the binary runs under
    /// `setpriv` without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so that a mode of 000 holds for it as
    /// for any user. (Not root: run as is.)
    static func runWithoutOverride(_ arguments: [String], directory: URL) async throws -> CLI.Result {
        guard getuid() == 0 else { return try await CLI.run(arguments, directory: directory) }
        return try await CLI.run(
            ["--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--", CLI.binary.path] + arguments,
            directory: directory,
            executable: URL(fileURLWithPath: "/usr/bin/setpriv")
        )
    }

    static var setprivAvailable: Bool {
        getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    @Test(.enabled(if: setprivAvailable), arguments: [0o000, 0o111])
    func anUnreadableFolderIsALocatedError(_ mode: Int) async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.scenario, "Scenarios/locked/b.yml": Self.scenario])
        let locked = project.appendingPathComponent("Scenarios/locked")
        #expect(chmod(locked.path, mode_t(mode)) == 0)
        defer { chmod(locked.path, 0o755) }
        let message =
            "error: Cannot read this folder (Permission denied); its scenario files would be skipped."
        for arguments in [["check"], ["--ci"], ["check", "Scenarios/locked"], ["--ci", "Scenarios/locked"]] {
            let result = try await Self.runWithoutOverride(arguments, directory: project)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.hasPrefix("Scenarios/locked:1:1: \(message)\n"), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("0 failed"), "nothing ran: \(result.stdout)")
        }
        // With the folder readable again, the same run passes: the error was the permission.
        chmod(locked.path, 0o755)
        let readable = try await Self.runWithoutOverride(["--ci"], directory: project)
        #expect(readable.status == 0, "\(readable.stderr)")
        #expect(readable.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test func aFileNameThatIsNotUTF8IsNamedAsSuch() async throws {
        let project = try CLI.project(["Scenarios/a.yml": Self.scenario])
        // "bad\xFF.yml": built from bytes, as no Swift string holds it.
        let folder = project.appendingPathComponent("Scenarios").path
        let name: [UInt8] = Array(folder.utf8) + Array("/bad".utf8) + [0xFF] + Array(".yml".utf8) + [0]
        let descriptor = name.withUnsafeBufferPointer { bytes in
            bytes.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { open($0, O_WRONLY | O_CREAT, 0o644) }
            } ?? -1
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let result = try await CLI.run(["check"], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "Scenarios/bad\u{FFFD}.yml:1:1: error: File name is not valid UTF-8; rename it to read it as a scenario file.\n"
            ),
            "\(result.stderr)"
        )
        #expect(!result.stderr.contains("Broken symbolic link"))
    }

    /// 10,000 scenarios on one line (340 KB), each with an unknown step: 10,000 errors, each sharing the
    /// file's text instead of holding a copy of the line (which took over 4 GB at 400 KB). Printed with
    /// 160 characters of the line around the caret.
    @Test func manyErrorsOnOneLongLineShareTheLine() async throws {
        let scenarios = (0..<10_000).map { "{scenario: S\($0), steps: [nope]}" }.joined(separator: ", ")
        let project = try CLI.project(["Scenarios/long.yml": "scenarios: [\(scenarios)]\n"])
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await BoundedRun.run(["check"], directory: project)
        BoundedRun.expectRejected(
            result,
            firstError: "Scenarios/long.yml:1:36: error: Unknown step 'nope'."
        )
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        // Checked, not assumed: a run that was stopped printed nothing to index.
        try #require(lines.count > 2, "\(result.stderr.prefix(500))")
        #expect(lines[1] == "scenarios: [\(scenarios.prefix(160 - 12))…", "\(lines[1])")
        #expect(lines[2] == String(repeating: " ", count: 35) + "^")
        // Further along the line: a window around the caret, both ends cut.
        let windows = lines.filter { $0.hasPrefix("…") && $0.hasSuffix("…") }
        #expect(windows.count == 99, "\(windows.count) windows")
        #expect(windows.allSatisfy { $0.count == 162 })
        #expect(result.stderr.hasSuffix("… and 9,900 more errors\n10,000 errors; nothing was run.\n"))
    }

    /// An error every two bytes (4 MB, 2,000,001 errors): each counted, the first 10,000 kept — memory
    /// for the nodes only (it was 400 MB here and 6 GB at 64 MB).
    @Test func twoMillionErrorsAreCountedNotKept() async throws {
        let project = try CLI.project([
            "Scenarios/dense.yml": "scenarios: [" + String(repeating: "1,", count: 2_000_000) + "1]\n"
        ])
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await BoundedRun.run(["check"], directory: project)
        BoundedRun.expectRejected(
            result,
            firstError:
                "Scenarios/dense.yml:1:13: error: A scenario is a mapping with 'scenario' (its name) and 'steps'."
        )
        #expect(
            result.stderr.hasSuffix("… and 1,999,901 more errors\n2,000,001 errors; nothing was run.\n"),
            "\(result.stderr.suffix(200))"
        )
    }

    /// A 1 MB scalar aliased 2,000 times: the aliases' bytes run out at the 17th (16 MiB), where
    /// counting nodes alone let it expand to 2 GB.
    @Test func aLargeScalarAliasedManyTimesRunsOutOfBytes() async throws {
        let big = String(repeating: "x", count: 1_000_000)
        let aliases = Array(repeating: "*big", count: 2_000).joined(separator: ", ")
        let text = """
            scenarios:
              - scenario: A
                steps:
                  - succeed: &big \(big)
                  - succeed: [\(aliases)]

            """
        let project = try CLI.project(["Scenarios/big.yml": text])
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await BoundedRun.run(["check"], directory: project)
        // The 17th alias: "      - succeed: [" then 16 of "*big, ".
        let column = "      - succeed: [".count + 16 * "*big, ".count + 1
        BoundedRun.expectRejected(
            result,
            firstError:
                "Scenarios/big.yml:5:\(column): error: Aliases expand to more than 16 MiB of text (16,777,216 bytes)."
        )
    }
}
