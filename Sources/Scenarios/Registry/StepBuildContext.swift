public import Diagnostics
public import Foundation
import SharedValues

/// What a step definition may consult while building a step: the fixture folder and the app's vocabulary.
public struct StepBuildContext: Sendable {
    /// The fixture folder, if the project has one.
    public var fixturesDirectory: URL?
    /// The app's known names.
    public var vocabulary: Vocabulary

    /// Makes a context with a fixture folder and the app's vocabulary; both empty by default.
    public init(fixturesDirectory: URL? = nil, vocabulary: Vocabulary = Vocabulary()) {
        self.fixturesDirectory = fixturesDirectory
        self.vocabulary = vocabulary
    }

    /// Whether the fixture folder holds a regular file at the relative path `name`, by the fixture folder's
    /// rule: its real path inside the folder, links resolved.
    public func fixtureExists(_ name: String) -> Bool {
        guard let directory = fixturesDirectory else { return false }
        return FixtureFolder(directory).file(named: name) != nil
    }

    /// Throws `Fixture 'x.json' not found in 'Fixtures'.` (with a suggestion when a name is near) unless the
    /// fixture exists.
    public func checkFixture(_ name: String, at location: SourceLocation) throws(StepArgumentError) {
        guard let directory = fixturesDirectory else {
            throw StepArgumentError("Fixture '\(name)' not found: the project has no fixture folder.", at: location)
        }
        let folder = FixtureFolder(directory)
        guard folder.file(named: name) == nil else { return }
        throw StepArgumentError(folder.message(for: name), at: location)
    }
}
