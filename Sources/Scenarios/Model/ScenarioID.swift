/// A scenario's identity, stable across processes: its file and its name (unique within a file).
public struct ScenarioID: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The scenario file's path as the user gave it.
    public var file: String
    /// The scenario's name, unique within its file.
    public var name: String

    /// Makes the identity of the scenario `name` in `file`.
    public init(file: String, name: String) {
        self.file = file
        self.name = name
    }

    public var description: String { "\(file): \(name)" }
}
