import Diagnostics
import Foundation
import Scenarios
import Testing

/// Every file under `Malformed/` must fail to load with exactly the diagnostics in its `.expected` file.
struct LoaderCorpusTests {
    static let names: [String] = {
        let folder = Snapshot.testsDirectory.appendingPathComponent("Malformed")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".yml") }.map { String($0.dropLast(4)) }.sorted()
    }()

    @Test func corpusIsLargeEnough() {
        #expect(Self.names.count >= 25)
    }

    @Test(arguments: names)
    func malformedFileIsRejected(_ name: String) throws {
        let url = Snapshot.testsDirectory.appendingPathComponent("Malformed/\(name).yml")
        let text = try String(contentsOf: url, encoding: .utf8)
        do {
            let scenarios = try FakeSteps.loader.load(yaml: text, file: "\(name).yml")
            Issue.record("\(name).yml loaded \(scenarios.count) scenarios instead of failing")
        } catch {
            Snapshot.expect(error.description + "\n", matches: "Malformed/\(name).expected")
        }
    }
}
