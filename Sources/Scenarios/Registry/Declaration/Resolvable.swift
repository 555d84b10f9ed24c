/// A step argument's value: known when the file loads, or written with `${…}` and resolved — converted
/// to its declared type, or failing at its location — when the step runs.
///
/// ```swift
/// let book = try input[bookID].resolve(in: context)   // an Int, also from "${kindred.bookID}"
/// ```
public struct Resolvable<Value: Sendable>: Sendable {
    /// The value as written, when it needs nothing from the run (no `${…}` inside).
    public let literal: Value?
    private let resolver: @Sendable (ScenarioContext) throws -> Value

    /// A value known now; `interpolate` resolves `${…}` inside it when the step runs (structured values).
    public init(_ value: Value, interpolate: (@Sendable (Value, ScenarioContext) throws -> Value)? = nil) {
        self.literal = interpolate == nil ? value : nil
        self.resolver = { context in try interpolate?(value, context) ?? value }
        self.asWritten = value
    }

    /// A value only the run can tell.
    public init(resolving: @escaping @Sendable (ScenarioContext) throws -> Value) {
        self.literal = nil
        self.resolver = resolving
        self.asWritten = nil
    }

    /// The value as written, any `${…}` inside its strings left in place; `nil` when the whole value is a
    /// reference that only the run can turn into the declared type.
    public let asWritten: Value?

    init(literal: Value?, asWritten: Value?, resolver: @escaping @Sendable (ScenarioContext) throws -> Value) {
        self.literal = literal
        self.asWritten = asWritten
        self.resolver = resolver
    }

    /// The same value, as an optional (an optional argument that was written).
    func wrapped() -> Resolvable<Value?> {
        let resolver = self.resolver
        return Resolvable<Value?>(literal: literal, asWritten: asWritten) { context in try resolver(context) }
    }

    /// The value for this run of the step.
    public func resolve(in context: ScenarioContext) throws -> Value {
        try resolver(context)
    }
}
