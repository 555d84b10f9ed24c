package import Foundation
package import SharedValues

/// Every step a project can use, described from the steps' own declarations: for `scenario-run steps`
/// (text for a terminal, markdown for `docs/steps.md`, JSON for tools) and for the schema.
package struct StepCatalogue: Sendable {
    /// A titled group of definitions (`Built-in steps`, `The app's steps`).
    package struct Section: Sendable {
        package var title: String
        package var definitions: [StepDefinition]
        /// Whether the definitions ship with the package (their source is not the project's to show).
        package var isBuiltIn: Bool

        package init(title: String, definitions: [StepDefinition], isBuiltIn: Bool) {
            self.title = title
            self.definitions = definitions
            self.isBuiltIn = isBuiltIn
        }
    }

    package var sections: [Section]
    /// Source paths under this folder are shown relative to it.
    package var directory: URL?

    package init(sections: [Section], directory: URL? = nil) {
        self.sections = sections
        self.directory = directory
    }

    /// The catalogue with only the step named `name` (compared as the registry compares names).
    package func only(named name: String) -> StepCatalogue? {
        let key = StepRegistry.normalize(name)
        let kept = sections.map { section in
            Section(
                title: section.title,
                definitions: section.definitions.filter { StepRegistry.normalize($0.name) == key },
                isBuiltIn: section.isBuiltIn
            )
        }.filter { !$0.definitions.isEmpty }
        return kept.isEmpty ? nil : StepCatalogue(sections: kept, directory: directory)
    }

    /// Every step's name, for suggestions.
    package var names: [String] { sections.flatMap { $0.definitions.map(\.name) } }

    // MARK: Where

    /// `built in`, or the app step's Swift file (relative to the project when inside it) and line.
    func place(of definition: StepDefinition, builtIn: Bool) -> String {
        if builtIn { return "built in" }
        var file = definition.definedAt.file
        if let directory {
            let prefix = directory.standardizedFileURL.path + "/"
            if file.hasPrefix(prefix) { file.removeFirst(prefix.count) }
        }
        return "\(file):\(definition.definedAt.line)"
    }

    // MARK: Text

    /// For a terminal: each step's name, summary, forms and arguments, example and place.
    package func text() -> String {
        var out = ""
        for section in sections {
            out += section.title + "\n\n"
            for definition in section.definitions {
                out += "  \(definition.name)  —  \(definition.summary)\n"
                for form in definition.forms { out += "      \(definition.name): \(form)\n" }
                for argument in Self.arguments(of: definition) {
                    var line = "        \(argument.key): \(argument.typeName)"
                    if let value = argument.defaultText { line += " (default \(value))" }
                    if !argument.help.isEmpty { line += " — \(argument.help)" }
                    out += line + "\n"
                }
                if definition.bindsName { out += "        as: a name later steps read as ${name}\n" }
                if let example = definition.example { out += "      e.g. \(example)\n" }
                out += "      (\(place(of: definition, builtIn: section.isBuiltIn)))\n\n"
            }
        }
        return out
    }

    // MARK: Markdown

    /// The reference page: a table of contents, then a section per step.
    package func markdown(title: String, introduction: String) -> String {
        var out = "# \(title)\n\n\(introduction)\n\n"
        for section in sections {
            out += "## \(section.title)\n\n"
            out += section.definitions.map { "[`\($0.name)`](#\(Self.anchor($0.name)))" }.joined(separator: " · ")
            out += "\n\n"
            for definition in section.definitions {
                out += "### \(definition.name)\n\n\(definition.summary).\n\n"
                out +=
                    "Written as: "
                    + definition.forms.map { "`\(Self.written(definition, $0))`" }
                    .joined(separator: " or ") + "\n\n"
                let arguments = Self.arguments(of: definition)
                if !arguments.isEmpty {
                    out += "| argument | type | required | default | meaning |\n| --- | --- | --- | --- | --- |\n"
                    for argument in arguments {
                        out +=
                            "| `\(argument.key)` | \(argument.typeName) | \(Self.required(argument.key, in: definition)) | "
                            + "\(argument.defaultText.map { "`\($0)`" } ?? "") | \(Self.escaped(argument.help)) |\n"
                    }
                    out += "\n"
                }
                if definition.bindsName {
                    out += "Takes `as: NAME`: later steps read the object as `${NAME}` or `${NAME.attribute}`.\n\n"
                }
                if let example = definition.example { out += "```yaml\n- \(example)\n```\n\n" }
                if !section.isBuiltIn { out += "Defined at `\(place(of: definition, builtIn: false))`.\n\n" }
            }
        }
        return out
    }

    // MARK: JSON

    /// For tools: every step with its forms, arguments (key, type, required, default, help, the kind of
    /// name it refers to, its JSON Schema), example and place.
    package func json() -> JSONValue {
        .array(
            sections.flatMap { section in
                section.definitions.map { definition -> JSONValue in
                    var object: [String: JSONValue] = [
                        "name": .string(definition.name),
                        "summary": .string(definition.summary),
                        "builtIn": .bool(section.isBuiltIn),
                        "definedAt": .string(place(of: definition, builtIn: section.isBuiltIn)),
                        "bindsName": .bool(definition.bindsName),
                        "forms": .array(
                            definition.forms.map { form in
                                [
                                    "written": .string(form.description),
                                    "kind": .string("\(form.kind)"),
                                    "arguments": .array(form.arguments.map(Self.json)),
                                ]
                            }
                        ),
                    ]
                    if let example = definition.example { object["example"] = .string(example) }
                    return .object(object)
                }
            }
        )
    }

    private static func json(_ argument: AnyStepArgument) -> JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(argument.key),
            "type": .string(argument.typeName),
            "required": .bool(argument.isRequired),
            "schema": argument.schema,
        ]
        if let value = argument.defaultText { object["default"] = .string(value) }
        if !argument.help.isEmpty { object["help"] = .string(argument.help) }
        if let kind = argument.nameKind { object["names"] = .string(kind.rawValue) }
        return .object(object)
    }

    // MARK: Helpers

    /// Each argument once, in the order the forms first name it.
    static func arguments(of definition: StepDefinition) -> [AnyStepArgument] {
        var seen: Set<String> = []
        return definition.forms.flatMap(\.arguments).filter { seen.insert($0.key).inserted }
    }

    /// `yes` when every form takes the argument and needs it, `in its form` when the forms that take it
    /// need it, else `no`.
    static func required(_ key: String, in definition: StepDefinition) -> String {
        let taking = definition.forms.compactMap { $0.arguments.first { $0.key == key } }
        guard taking.allSatisfy(\.isRequired) else { return "no" }
        return taking.count == definition.forms.count ? "yes" : "in its form"
    }

    /// `stub route: {class, method, to}`, `wait: SECONDS`, `wait for requests`.
    static func written(_ definition: StepDefinition, _ form: ArgumentForm) -> String {
        form.kind == .none ? definition.name : "\(definition.name): \(form)"
    }

    /// GitHub's heading anchor: lower case, spaces to dashes.
    static func anchor(_ heading: String) -> String {
        heading.lowercased().map { $0 == " " ? "-" : String($0) }.joined()
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
