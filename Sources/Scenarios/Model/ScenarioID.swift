/// A scenario's identity, stable across processes: its file and its name (unique within a file).
public struct ScenarioID: Hashable, Codable, Sendable, CustomStringConvertible {
    public var file: String
    public var name: String

    public init(file: String, name: String) {
        self.file = file
        self.name = name
    }

    public var description: String { "\(file): \(name)" }
}
