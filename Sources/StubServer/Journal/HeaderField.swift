/// One HTTP header as sent or to be sent, in order; names compare case-insensitively where looked up.
public struct HeaderField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
