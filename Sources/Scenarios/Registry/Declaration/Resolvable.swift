/// A step argument's value: known when the file loads, or written with `${…}` and resolved — converted
/// to its declared type, or failing at its location — when the step runs.
///
/// ```swift
/// let book = try input[bookID].resolve(in: context)   // an Int, also from "${kindred.bookID}"
/// ```
public struct Resolvable<Value: Sendable>: Sendable {
    /// How the value is had. A value known at load holds no closure and fits an existential's inline
    /// buffer: most arguments are literals, and a file of thousands of steps reads them all.
    @usableFromInline
    enum Source: Sendable {
        /// Known as written.
        case known(Value)
        /// Known only when the step runs.
        case deferred(Deferred)
    }

    /// A value the run resolves: its spelling (when it has the declared type as written), the text
    /// written in the file (`${size}`, for descriptions), and how.
    @usableFromInline
    final class Deferred: Sendable {
        @usableFromInline let asWritten: Value?
        @usableFromInline let text: String?
        @usableFromInline let resolve: @Sendable (ScenarioContext) throws -> Value

        @usableFromInline
        init(asWritten: Value?, text: String? = nil, resolve: @escaping @Sendable (ScenarioContext) throws -> Value) {
            self.asWritten = asWritten
            self.text = text
            self.resolve = resolve
        }
    }

    @usableFromInline
    let source: Source

    /// A value known now; `interpolate` resolves `${…}` inside it when the step runs (structured values).
    @inlinable
    public init(_ value: Value, interpolate: (@Sendable (Value, ScenarioContext) throws -> Value)? = nil) {
        if let interpolate {
            source = .deferred(Deferred(asWritten: value) { context in try interpolate(value, context) })
        } else {
            source = .known(value)
        }
    }

    /// A value only the run can tell.
    @inlinable
    public init(resolving: @escaping @Sendable (ScenarioContext) throws -> Value) {
        source = .deferred(Deferred(asWritten: nil, resolve: resolving))
    }

    /// A value only the run can tell, written in the file as `text` (`${size}`).
    @inlinable
    package init(written text: String, resolving: @escaping @Sendable (ScenarioContext) throws -> Value) {
        source = .deferred(Deferred(asWritten: nil, text: text, resolve: resolving))
    }

    @inlinable
    init(source: Source) {
        self.source = source
    }

    /// The value as written, when it needs nothing from the run (no `${…}` inside).
    @inlinable
    public var literal: Value? {
        if case .known(let value) = source { return value }
        return nil
    }

    /// The value as written, any `${…}` inside its strings left in place; `nil` when the whole value is a
    /// reference that only the run can turn into the declared type.
    @inlinable
    public var asWritten: Value? {
        switch source {
        case .known(let value): return value
        case .deferred(let deferred): return deferred.asWritten
        }
    }

    /// The same value, as an optional (an optional argument that was written).
    @inlinable
    func wrapped() -> Resolvable<Value?> {
        switch source {
        case .known(let value):
            return Resolvable<Value?>(source: .known(value))
        case .deferred(let deferred):
            let resolve = deferred.resolve
            return Resolvable<Value?>(
                source: .deferred(
                    .init(asWritten: deferred.asWritten, text: deferred.text) { context in try resolve(context) }
                )
            )
        }
    }

    /// The value for people, as `show` writes it; a value only the run can tell as written in the file
    /// (`${size}`), or `…`. What a step's description says before it runs.
    package func described(_ show: (Value) -> String) -> String {
        switch source {
        case .known(let value): return show(value)
        case .deferred(let deferred): return deferred.asWritten.map(show) ?? deferred.text ?? "…"
        }
    }

    /// The value for this run of the step.
    @inlinable
    public func resolve(in context: ScenarioContext) throws -> Value {
        switch source {
        case .known(let value): return value
        case .deferred(let deferred): return try deferred.resolve(context)
        }
    }
}
