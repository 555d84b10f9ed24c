public import Diagnostics

/// A named, ordered list of steps loaded from a scenario file.
public struct Scenario: Sendable {
    public var name: String
    /// The scenario's own tags and those of its file.
    public var tags: Set<String>
    /// Where the scenario's `scenario:` entry is written.
    public var location: SourceLocation
    /// The file's `feature:`, or the file name without its extension.
    public var feature: String
    /// The file's path as the user gave it.
    public var file: String
    /// The file's `set up` steps, run after the default set-up steps.
    public var setUp: [Step]
    /// The scenario's own steps.
    public var steps: [Step]

    public init(
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
    public var id: ScenarioID { ScenarioID(file: file, name: name) }
}
