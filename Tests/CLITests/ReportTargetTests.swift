import Foundation
import TestSupport
import Testing

/// Where `--junit PATH` and `merge-junit OUT` write: a regular file is replaced whole, anything else is
/// written through (a device, a FIFO, a link's target), and a failed write is an error with exit 2.
/// Then `merge-junit` on hostile reports: numbers too large, elements nested too deep, long text.
struct ReportTargetTests {
    static let passing = ["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"]

    /// A small JUnit report for merge-junit, with `suite` attributes and `body` inside its testsuite.
    static func report(_ attributes: String = #"tests="1" failures="0" time="0.5""#, body: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="shard">
          <testsuite name="A" \(attributes)>
            <testcase classname="A" name="one" time="0.5"/>\(body)
          </testsuite>
        </testsuites>

        """
    }

    @Test func aCharacterDeviceIsWrittenThroughNotReplaced() async throws {
        let project = try CLI.project(Self.passing)
        let result = try await CLI.run(["--ci", "--junit", "/dev/null"], directory: project)
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFCHR, "/dev/null is still a character device")
        try Self.report().write(to: project.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
        let merged = try await CLI.run(["merge-junit", "/dev/null", "one.xml"], directory: project)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aFullDeviceIsAnErrorWithExitTwo() async throws {
        let project = try CLI.project(Self.passing)
        let result = try await CLI.run(["--ci", "--junit", "/dev/full"], directory: project)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains(
                "error: The JUnit report was not written. Cannot write '/dev/full': No space left on device."
            ),
            "\(result.stderr)"
        )
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)

        try Self.report().write(to: project.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
        let merged = try await CLI.run(["merge-junit", "/dev/full", "one.xml"], directory: project)
        #expect(merged.status == 2)
        #expect(merged.stderr == "error: Cannot write '/dev/full': No space left on device.\n", "\(merged.stderr)")
    }

    @Test func standardOutputGetsTheReportAfterTheSummary() async throws {
        let project = try CLI.project(Self.passing)
        let result = try await CLI.run(["--ci", "--junit", "/dev/stdout"], directory: project)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.stdout.range(of: "1 passed, 0 failed\n"))
        #expect(result.stdout[summary.upperBound...].hasPrefix("<?xml"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("</testsuites>\n"))
    }

    @Test func aFIFOIsWrittenThroughToItsReader() async throws {
        let project = try CLI.project(Self.passing)
        let fifo = project.appendingPathComponent("report.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The test is the reader: opened without waiting for a writer, read once the run has ended (the
        // report fits in the pipe's buffer).
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let result = try await CLI.run(["--ci", "--junit", fifo], directory: project)
        #expect(result.status == 0, "\(result.stderr)")
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(reader, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk.prefix(count)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("<?xml") && text.hasSuffix("</testsuites>\n"), "\(text)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    }

    @Test func aFIFOWithoutAReaderIsAnErrorNotAHang() async throws {
        let project = try CLI.project(Self.passing)
        let fifo = project.appendingPathComponent("report.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await CLI.run(["--ci", "--junit", fifo], directory: project)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("Cannot write '\(fifo)': no process is reading that FIFO."),
            "\(result.stderr)"
        )
    }

    @Test func aSymbolicLinkWritesItsTargetAndStaysALink() async throws {
        let project = try CLI.project(Self.passing)
        let reports = project.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try "old".write(to: reports.appendingPathComponent("real.xml"), atomically: true, encoding: .utf8)
        let link = project.appendingPathComponent("report.xml").path
        #expect(symlink("reports/real.xml", link) == 0)
        let result = try await CLI.run(["--ci", "--junit", "report.xml"], directory: project)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "reports/real.xml")
        let target = try String(contentsOf: reports.appendingPathComponent("real.xml"), encoding: .utf8)
        #expect(target.contains(#"<testcase classname="a" name="A""#), "\(target)")

        // A dangling link: the report is created where it points.
        #expect(symlink("reports/new.xml", project.appendingPathComponent("new.xml").path) == 0)
        try Self.report().write(to: project.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
        let merged = try await CLI.run(["merge-junit", "new.xml", "one.xml"], directory: project)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("new.xml").path))
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: project.appendingPathComponent("new.xml").path))
                == "reports/new.xml"
        )
    }

    // MARK: merge-junit on hostile reports

    @Test(arguments: [
        (#"tests="1e300""#, #"has tests="1e300", more than the limit of 1,000,000,000."#),
        (#"tests="1" time="1e16""#, #"has time="1e16", more than the limit of 1,000,000,000."#),
    ])
    func numbersTooLargeAreErrors(_ attributes: String, _ message: String) async throws {
        let project = try CLI.project([:])
        try Self.report(attributes).write(
            to: project.appendingPathComponent("big.xml"),
            atomically: true,
            encoding: .utf8
        )
        let result = try await CLI.run(["merge-junit", "out.xml", "big.xml"], directory: project)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "error: 'big.xml': testsuite 'A' \(message)\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("out.xml").path))
    }

    /// Two shards at the limit: the sum is written, not an overflow.
    @Test func largeCountsSumWithoutOverflow() async throws {
        let project = try CLI.project([:])
        for name in ["one.xml", "two.xml"] {
            try Self.report(#"tests="1000000000" time="1000000000""#).write(
                to: project.appendingPathComponent(name),
                atomically: true,
                encoding: .utf8
            )
        }
        let result = try await CLI.run(["merge-junit", "out.xml", "one.xml", "two.xml"], directory: project)
        #expect(result.status == 0, "\(result.stderr)")
        let merged = try String(contentsOf: project.appendingPathComponent("out.xml"), encoding: .utf8)
        #expect(merged.contains(#"tests="2000000000""#), "\(merged.prefix(400))")
        #expect(merged.contains(#"time="2000000000.000""#), "\(merged.prefix(400))")
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() async throws {
        let project = try CLI.project([:])
        let depth = 5_000
        let deep = String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
        try Self.report(body: deep).write(
            to: project.appendingPathComponent("deep.xml"),
            atomically: true,
            encoding: .utf8
        )
        let result = try await BoundedRun.run(["merge-junit", "out.xml", "deep.xml"], directory: project)
        #expect(!result.crashed, "\(result.stderr.prefix(500))")
        #expect(result.status == 2)
        #expect(
            result.firstError?.hasPrefix("deep.xml:4:") == true
                && result.firstError?.hasSuffix(": error: Malformed JUnit XML: elements nest deeper than 256 levels.")
                    == true,
            "\(result.stderr.prefix(500))"
        )
    }

    @Test func textThatIsNotXMLIsNotCalledEmpty() async throws {
        let project = try CLI.project([:])
        try "just some text\n".write(to: project.appendingPathComponent("notes.xml"), atomically: true, encoding: .utf8)
        try "".write(to: project.appendingPathComponent("empty.xml"), atomically: true, encoding: .utf8)
        let text = try await CLI.run(["merge-junit", "out.xml", "notes.xml"], directory: project)
        #expect(text.status == 2)
        #expect(
            text.stderr.hasPrefix(
                "notes.xml:1:1: error: Malformed JUnit XML: it holds text but no XML element; is this a JUnit report?"
            ),
            "\(text.stderr)"
        )
        let empty = try await CLI.run(["merge-junit", "out.xml", "empty.xml"], directory: project)
        #expect(empty.stderr.hasPrefix("empty.xml:1:1: error: Malformed JUnit XML: it is empty."), "\(empty.stderr)")
    }

    /// 8 MB of `system-out` in pieces libxml2 hands over one by one (entities split the text): merged
    /// in seconds, not minutes (a bound with a wide margin — quadratic joining took 30 s for 4 MB and
    /// over 120 s for 16 MB; libxml2 itself refuses a text node over 10 MB).
    @Test func longTextMergesInLinearTime() async throws {
        let project = try CLI.project([:])
        let piece = "output line &amp; more\n"
        let text = String(repeating: piece, count: 8 * 1024 * 1024 / piece.utf8.count)
        try Self.report(body: "<system-out>\(text)</system-out>").write(
            to: project.appendingPathComponent("long.xml"),
            atomically: true,
            encoding: .utf8
        )
        let start = ContinuousClock.now
        let result = try await CLI.run(["merge-junit", "out.xml", "long.xml", "long.xml"], directory: project)
        let elapsed = ContinuousClock.now - start
        #expect(result.status == 0, "\(result.stderr.prefix(500))")
        #expect(elapsed < .seconds(60), "merging took \(elapsed)")
        let timings = try await CLI.run(
            ["--ci", "--shard", "1/2", "--shard-timings", "long.xml", "--list"],
            directory: project
        )
        #expect(timings.status == 0, "\(timings.stderr.prefix(500))")
        #expect(ContinuousClock.now - start < .seconds(120))
    }
}
