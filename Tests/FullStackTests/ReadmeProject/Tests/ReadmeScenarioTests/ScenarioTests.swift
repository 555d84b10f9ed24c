import Foundation
import ScenarioTesting
import Testing

// README.md's `swift test` test target, compiled: the block between the markers is README's, line for
// line, indented one level (here it sits in the serialized `FullStack` suite, so no other test changes
// the app's reading list meanwhile) and with `MyApp` named `ReadmeApp` (the README imports `MyApp`;
// here the app is in this module). It sits where the README's project has it,
// `Tests/MyAppScenarioTests/`, so `root` is this project's folder (`ReadmeProject`).
// `ReadmeSnippetTests` holds the README to it.
extension FullStack {
    // README: begin swift test
    @Suite(.serialized) struct ScenarioTests {
        static let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        @Test(arguments: ScenarioTesting.scenarios(app: ReadmeApp.appUnderTest, directory: root))
        func scenario(_ scenario: ScenarioCase) async throws {
            try await ScenarioTesting.run(scenario)
        }
    }
    // README: end swift test
}
