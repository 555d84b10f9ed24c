public import Diagnostics
public import Foundation

/// What a step definition may consult while building a step: the fixture folder and the app's vocabulary.
public struct StepBuildContext: Sendable {
    /// The fixture folder, if the project has one.
    public var fixturesDirectory: URL?
    /// The app's known names.
    public var vocabulary: Vocabulary

    public init(fixturesDirectory: URL? = nil, vocabulary: Vocabulary = Vocabulary()) {
        self.fixturesDirectory = fixturesDirectory
        self.vocabulary = vocabulary
    }

    /// Whether the fixture folder holds a regular file at the relative path `name` (never outside the folder).
    public func fixtureExists(_ name: String) -> Bool {
        guard let directory = fixturesDirectory, !name.hasPrefix("/") else { return false }
        let components = name.split(separator: "/")
        guard !components.contains("..") else { return false }
        var isDirectory: ObjCBool = false
        let path = directory.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Throws `Fixture 'x.json' not found in 'Fixtures'.` unless the fixture exists.
    public func checkFixture(_ name: String, at location: SourceLocation) throws(StepArgumentError) {
        guard !fixtureExists(name) else { return }
        let folder = fixturesDirectory?.lastPathComponent ?? "the fixture folder"
        throw StepArgumentError("Fixture '\(name)' not found in '\(folder)'.", at: location)
    }
}
