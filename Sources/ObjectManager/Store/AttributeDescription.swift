/// One attribute of an entity: a name, a type and whether it may be null.
public struct AttributeDescription: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool

    public init(_ name: String, _ type: AttributeType, isOptional: Bool = true) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }

    public init(name: String, type: AttributeType, isOptional: Bool = true) {
        self.init(name, type, isOptional: isOptional)
    }
}
