import Foundation
import Testing

/// The demo suite proves its isolation: it passes in file order (the other tests), shuffled, with
/// `--jobs 2`, and each scenario alone. `.ci/order-independence.py` runs more seeds, and the example
/// package too.
@Suite(.serialized)
struct OrderIndependenceTests {
    @Test(arguments: [1, 2, 3])
    func theDemoSuitePassesShuffled(seed: Int) async throws {
        let result = try await CLI.run(["--ci", "--shuffle", String(seed)])
        #expect(result.status == 0, "seed \(seed): \(result.stdout)")
        #expect(result.stdout.hasPrefix("Shuffled with seed \(seed)\n"))
    }

    @Test func theDemoSuitePassesShuffledWithTwoJobs() async throws {
        let result = try await CLI.run(["--ci", "--jobs", "2", "--shuffle", "4"])
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test func everyDemoScenarioPassesAlone() async throws {
        let listing = try await CLI.run(["--list"])
        let names = OrderAndShardTests.listed(listing.stdout)
        #expect(names.count >= 26, "\(listing.stdout)")
        for name in names {
            let alone = try await CLI.run([
                "--ci", "--filter", "^" + NSRegularExpression.escapedPattern(for: name) + "$",
            ])
            #expect(alone.status == 0, "\(name) alone: \(alone.stdout)")
            #expect(alone.stdout.hasSuffix("1 passed, 0 failed\n"), "\(name) alone: \(alone.stdout)")
        }
    }
}
