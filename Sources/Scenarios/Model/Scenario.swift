package import Diagnostics

/// A named, ordered list of steps loaded from a scenario file.
package struct Scenario: Sendable {
    package var name: String
    /// The scenario's own tags and those of its file.
    package var tags: Set<String>
    /// Where the scenario's `scenario:` entry is written.
    package var location: SourceLocation
    /// The file's `feature:`, or the file name without its extension.
    package var feature: String
    /// The file's path as the user gave it.
    package var file: String
    /// The file's `set up` steps, run after the default set-up steps.
    package var setUp: [Step]
    /// The scenario's own steps.
    package var steps: [Step]

    package init(
        name: String,
        tags: Set<String> = [],
        location: SourceLocation,
        feature: String,
        file: String,
        setUp: [Step] = [],
        steps: [Step]
    ) {
        self.name = name
        self.tags = tags
        self.location = location
        self.feature = feature
        self.file = file
        self.setUp = setUp
        self.steps = steps
    }

    /// The scenario's stable identity.
    package var id: ScenarioID { ScenarioID(file: file, name: name) }
}
