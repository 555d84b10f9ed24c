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
    /// The file's `tear down` steps, run after the scenario's steps (also after a failure), before the
    /// default tear-down steps.
    package var tearDown: [Step] = []
    /// Why the scenario is not run (`skip:` on the scenario or its file); `nil` when it runs.
    package var skip: String?
    /// Where the scenario comes from when it is a row of an outline's `examples:`; `nil` otherwise.
    package var example: ExampleRow?
    /// The last line of the file its item (or its outline's) is written on: `PATH:LINE` selects the
    /// scenario only up to here. `0` when not known (a scenario built in code): up to the next one.
    package var lastLine = 0
    /// Where the scenario's item and its file's own keys are written, in bytes, when a process that hands
    /// scenarios to workers loaded it (``ScenarioLoader/keepsActions`` off): a worker reads them and
    /// nothing else of the file. `nil` otherwise.
    package var itemSource: ItemSource?

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

/// Where a scenario that is one row of an outline comes from: the outline (its `- scenario:` item) and
/// the row's number (1-based). The scenario's own ``Scenario/location`` is the row's.
package struct ExampleRow: Sendable, Hashable {
    package var outline: SourceLocation
    package var row: Int

    package init(outline: SourceLocation, row: Int) {
        self.outline = outline
        self.row = row
    }
}
