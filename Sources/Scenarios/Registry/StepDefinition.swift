public import Diagnostics

/// A step the scenario files can use by name: its arguments declared once (``ArgumentForm``s of typed
/// ``StepArgument``s), a summary and an example for the catalogue, and how to build the step from the
/// arguments as read. The load-time checks, `${…}` resolution, usage text, `scenario-run steps` and
/// `scenario-run schema` all derive from the declaration.
///
/// ```swift
/// enum BorrowBook {
///     static let book = StepArgument<Int>.required("book", .integer, "The book's ID")
///     static let member = StepArgument<String>.required("member", .string, "Who borrows it")
///
///     static let definition = StepDefinition(
///         "borrow book",
///         summary: "Borrows a book for a member from the loan list",
///         forms: [.mapping(book.any, member.any)],
///         example: "borrow book: { book: 7, member: Ada Lovelace }"
///     ) { input, _ in
///         Step("borrow book") { context in
///             let id = try input[book].resolve(in: context)      // an Int, also from "${kindred.bookID}"
///             …
///         }
///     }
/// }
/// ```
public struct StepDefinition: Sendable {
    /// The name used in scenario files, e.g. `stub route`.
    public var name: String
    /// One line for help, `--list` and the catalogue.
    public var summary: String
    /// The ways its arguments may be written.
    public var forms: [ArgumentForm]
    /// A line of a scenario file using it, for the catalogue: `stub route: { class: Review, method: POST, to: /422 }`.
    public var example: String?
    /// Whether the step accepts `as: NAME` (it creates something later steps can refer to).
    public var bindsName: Bool
    /// Where the definition is written (its Swift source), for errors about the definition itself and the catalogue.
    public var definedAt: SourceLocation
    /// Builds the step from the arguments as written; the loader sets the step's location.
    package var build: @Sendable (StepArguments, StepBuildContext) throws(StepArgumentError) -> Step

    /// Whether a step built from the same arguments written the same way may be built once per file and
    /// shared (each use keeps its own location and timeout): set only on built-in definitions whose build
    /// is pure and whose step keeps no argument's location and no state of its own. An app's definitions
    /// are always built per use. Steps with `${…}` references or `as:` are never shared.
    package var buildsOncePerFile = false

    /// The forms as text, for messages: `{class, method, to}`.
    public var usage: [String] { forms.map(\.description) }

    /// Declares a step: its name, a summary, the forms its arguments take, an example, and how to build it.
    /// A `StepArgumentError` thrown by `build` keeps its location; any other error is reported at the
    /// step's arguments.
    public init(
        _ name: String,
        summary: String,
        forms: [ArgumentForm] = [.none],
        example: String? = nil,
        bindsName: Bool = false,
        file: String = #filePath,
        line: Int = #line,
        build: @escaping @Sendable (StepInput, StepBuildContext) throws -> Step
    ) {
        self.name = name
        self.summary = summary
        self.forms = forms
        self.example = example
        self.bindsName = bindsName
        self.definedAt = SourceLocation(file: file, line: line, column: 1)
        self.build = { (arguments: StepArguments, context: StepBuildContext) throws(StepArgumentError) -> Step in
            let input = try StepInput.read(arguments, forms: forms, build: context)
            do {
                return try build(input, context)
            } catch let error as StepArgumentError {
                throw error
            } catch {
                throw StepArgumentError("\(error)", at: arguments.location)
            }
        }
    }

    /// This definition, marked as built once per file (``buildsOncePerFile``).
    package func buildingOncePerFile() -> StepDefinition {
        var definition = self
        definition.buildsOncePerFile = true
        return definition
    }
}
