/// One attribute of an entity: a name, a type and whether it may be null.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, its column in the store.
    public var name: String
    /// The type the attribute's values are converted to.
    public var type: AttributeType
    /// Whether the attribute may be null; a non-optional attribute must have a value when its object is saved.
    public var isOptional: Bool

    /// Makes an attribute: `AttributeDescription("title", .string)`; attributes are optional by default.
    public init(_ name: String, _ type: AttributeType, isOptional: Bool = true) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }

    /// Makes an attribute, with its parts named; attributes are optional by default.
    public init(name: String, type: AttributeType, isOptional: Bool = true) {
        self.init(name, type, isOptional: isOptional)
    }
}
