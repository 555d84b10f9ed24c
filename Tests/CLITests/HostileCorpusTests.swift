import Foundation
import Testing

/// `scenario-run check` on every file of `HostileCorpus/` (see its README): exit 2, the expected first
/// error line, no crash, within the time and memory limits of ``BoundedRun``.
@Suite(.serialized)
struct HostileCorpusTests {
    static let corpus = CLI.repositoryRoot.appendingPathComponent("Tests/CLITests/HostileCorpus")

    static func names(_ folder: String) -> [String] {
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path)) ?? []
        return files.filter { $0.hasSuffix(".yml") }.map { String($0.dropLast(4)) }.sorted()
    }

    static let scenarioNames = names("scenarios")
    static let serverNames = names("server")

    /// One scratch project holding every damaged scenario file; each test checks one of them.
    static let scenarioProject: URL? = {
        guard let project = try? CLI.project([:]) else { return nil }
        for name in scenarioNames {
            let source = corpus.appendingPathComponent("scenarios/\(name).yml")
            try? FileManager.default.copyItem(at: source, to: project.appendingPathComponent("Scenarios/\(name).yml"))
        }
        return project
    }()

    static func expected(_ folder: String, _ name: String) throws -> String {
        let url = corpus.appendingPathComponent("\(folder)/\(name).expected")
        return try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .newlines)
    }

    @Test func corpusIsLargeEnough() {
        #expect(Self.scenarioNames.count >= 150, "\(Self.scenarioNames.count) scenario files")
        #expect(Self.serverNames.count >= 40, "\(Self.serverNames.count) server files")
    }

    @Test(arguments: scenarioNames)
    func damagedScenarioFileIsALocatedError(_ name: String) async throws {
        let project = try #require(Self.scenarioProject)
        let result = try await BoundedRun.run(["check", "Scenarios/\(name).yml"], directory: project)
        BoundedRun.expectRejected(result, firstError: try Self.expected("scenarios", name))
    }

    @Test(arguments: serverNames)
    func damagedServerFileIsALocatedError(_ name: String) async throws {
        let project = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        defer { try? FileManager.default.removeItem(at: project) }
        let server = project.appendingPathComponent("Fixtures/server.yml")
        try FileManager.default.removeItem(at: server)
        try FileManager.default.copyItem(at: Self.corpus.appendingPathComponent("server/\(name).yml"), to: server)
        let result = try await BoundedRun.run(["check"], directory: project)
        BoundedRun.expectRejected(result, firstError: try Self.expected("server", name))
    }

    /// Over 64 MB: refused by its size before it is read (a sparse file, so the test writes next to nothing).
    @Test(arguments: ["Scenarios/huge.yml", "Fixtures/server.yml", "scenario-run.yml"])
    func aFileOverTheSizeLimitIsRefusedBeforeItIsRead(_ path: String) async throws {
        let project = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        defer { try? FileManager.default.removeItem(at: project) }
        let url = project.appendingPathComponent(path)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("routes:\n".utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 64 * 1024 * 1024 + 1)
        try handle.close()
        let result = try await BoundedRun.run(["check"], directory: project)
        BoundedRun.expectRejected(
            result,
            firstError:
                "\(path):1:1: error: File of 67,108,865 bytes is larger than the limit of 64 MB (67,108,864 bytes)."
        )
    }

    /// A mapping with 100,000 keys (each an error): keys are checked for repeats through a set, not pair
    /// by pair, and the output stops after 100 errors with a count.
    @Test func aMappingWithAHundredThousandKeysIsQuick() async throws {
        let keys = (0..<100_000).map { "k\($0): x" }.joined(separator: "\n")
        let project = try CLI.project([
            "Scenarios/keys.yml": "scenarios: [{ scenario: A, steps: [succeed] }]\n" + keys + "\n"
        ])
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await BoundedRun.run(["check"], directory: project)
        BoundedRun.expectRejected(
            result,
            firstError: "Scenarios/keys.yml:2:1: error: Unknown key 'k0' in scenario file."
        )
        #expect(
            result.stderr.hasSuffix("… and 99,900 more errors\n100,000 errors; nothing was run.\n"),
            "\(result.stderr.suffix(300))"
        )
    }
}
