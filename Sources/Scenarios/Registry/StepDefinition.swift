public import Diagnostics

/// A step the scenario files can use by name: how to describe it and how to build it from its arguments.
///
/// ```swift
/// StepDefinition(name: "expect response", summary: "Passes when the last response matches",
///                usage: ["{status, json, body contains, error}"]) { arguments, _ in
///     let status = try arguments.int("status")
///     return Step(arguments.sourceDescription) { context in ... }
/// }
/// ```
public struct StepDefinition: Sendable {
    /// The name used in scenario files, e.g. `stub route`.
    public var name: String
    /// One line for help and `--list`.
    public var summary: String
    /// The argument shapes it accepts, for help and messages: `{class, method, to}`.
    public var usage: [String]
    /// Whether the step accepts `as: NAME` (it creates something later steps can refer to).
    public var bindsName: Bool
    /// Builds the step, checking its arguments; the loader sets the step's location.
    public var build: @Sendable (StepArguments, StepBuildContext) throws(StepArgumentError) -> Step
    /// Where the definition is written (its Swift source), for errors about the definition itself.
    public var definedAt: SourceLocation

    public init(
        name: String,
        summary: String,
        usage: [String] = [],
        bindsName: Bool = false,
        file: String = #filePath,
        line: Int = #line,
        build: @escaping @Sendable (StepArguments, StepBuildContext) throws(StepArgumentError) -> Step
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.bindsName = bindsName
        self.definedAt = SourceLocation(file: file, line: line, column: 1)
        self.build = build
    }

    /// A definition whose build closure may throw any error (closures infer untyped `throws`): a
    /// ``StepArgumentError`` keeps its location, any other error is reported at the step's arguments.
    ///
    /// ```swift
    /// StepDefinition(name: "expect title", summary: "Waits for a book with that title", usage: ["TITLE"]) { arguments, _ in
    ///     let title = try arguments.scalar()
    ///     return Step("expect title '\(title)'") { context in ... }
    /// }
    /// ```
    @_disfavoredOverload
    public init(
        name: String,
        summary: String,
        usage: [String] = [],
        bindsName: Bool = false,
        file: String = #filePath,
        line: Int = #line,
        build: @escaping @Sendable (StepArguments, StepBuildContext) throws -> Step
    ) {
        self.init(name: name, summary: summary, usage: usage, bindsName: bindsName, file: file, line: line) {
            (arguments: StepArguments, context: StepBuildContext) throws(StepArgumentError) -> Step in
            do {
                return try build(arguments, context)
            } catch let error as StepArgumentError {
                throw error
            } catch {
                throw StepArgumentError("\(error)", at: arguments.location)
            }
        }
    }
}
