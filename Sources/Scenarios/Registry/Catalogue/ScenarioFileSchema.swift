package import SharedValues

/// The JSON Schema (draft 2020-12) of a scenario file, from the steps' declarations and the app's names,
/// for editors' YAML support (`# yaml-language-server: $schema=…`). Structure only: `${…}` references,
/// key order and load-time rules the schema cannot say (bound names, fixture files) stay `check`'s.
package enum ScenarioFileSchema {
    static let draft: JSONValue = "https://json-schema.org/draft/2020-12/schema"

    package static func schema(definitions: [StepDefinition], vocabulary: Vocabulary) -> JSONValue {
        var defs: [String: JSONValue] = [:]
        var stepChoices: [JSONValue] = []
        let bare = definitions.filter {
            $0.forms.contains { $0.kind == .none || ($0.kind == .value && !$0.arguments[0].isRequired) }
        }
        if !bare.isEmpty { stepChoices.append(["enum": .array(bare.map { .string($0.name) })]) }
        for (index, definition) in definitions.enumerated() {
            let id = "step\(index)"
            defs[id] = [
                "type": "object",
                "description": .string(definition.summary),
                "properties": .object([
                    definition.name: arguments(of: definition, vocabulary: vocabulary),
                    "timeout": [
                        "type": "number", "exclusiveMinimum": 0, "description": "This step's own timeout, in seconds",
                    ],
                ]),
                "required": [.string(definition.name)],
                "additionalProperties": false,
            ]
            stepChoices.append(["$ref": .string("#/$defs/" + id)])
        }
        defs["step"] = ["anyOf": .array(stepChoices)]
        defs["steps"] = ["type": "array", "items": ["$ref": "#/$defs/step"]]
        defs["tags"] = ["type": "array", "items": ["type": "string"]]
        defs["scenario"] = [
            "type": "object",
            "properties": [
                "scenario": ["type": "string", "description": "The scenario's name, unique in its file"],
                "tags": ["$ref": "#/$defs/tags"],
                "skip": [
                    "type": ["string", "boolean"],
                    "description": "Reported skipped with this reason (true: skipped; false: run)",
                ],
                "examples": [
                    "type": "array",
                    "items": [
                        "type": "object", "additionalProperties": ["type": ["string", "number", "boolean", "null"]],
                    ],
                    "description": "An outline's rows: each row one scenario, its values in the steps' ${column}",
                ],
                "steps": ["$ref": "#/$defs/steps"],
            ],
            "required": ["scenario", "steps"],
            "additionalProperties": false,
        ]
        return [
            "$schema": draft,
            "title": "scenario-run scenario file",
            "type": "object",
            "properties": [
                "feature": ["type": "string", "description": "Groups the file's scenarios (a JUnit testsuite)"],
                "tags": ["$ref": "#/$defs/tags"],
                "set up": ["$ref": "#/$defs/steps"],
                "tear down": ["$ref": "#/$defs/steps"],
                "skip": [
                    "type": ["string", "boolean"],
                    "description": "Every scenario of the file is reported skipped with this reason (false: run)",
                ],
                "scenarios": ["type": "array", "items": ["$ref": "#/$defs/scenario"]],
            ],
            "additionalProperties": false,
            "$defs": .object(defs),
        ]
    }

    /// What may follow a step's name: any of its forms.
    static func arguments(of definition: StepDefinition, vocabulary: Vocabulary) -> JSONValue {
        let forms = definition.forms.map { form -> JSONValue in
            switch form.kind {
            case .none:
                return ["type": "null"]
            case .value:
                let argument = form.arguments[0]
                let schema = self.schema(of: argument, vocabulary: vocabulary)
                return argument.isRequired ? schema : ["anyOf": [schema, ["type": "null"]]]
            case .list:
                // The argument's own type reads the whole list (`.list(of:)`).
                return schema(of: form.arguments[0], vocabulary: vocabulary)
            case .mapping:
                var properties: [String: JSONValue] = [:]
                for argument in form.arguments {
                    properties[argument.key] = schema(of: argument, vocabulary: vocabulary)
                }
                if definition.bindsName {
                    properties["as"] = [
                        "type": "string", "description": "Binds the object for later ${NAME} references",
                    ]
                }
                return [
                    "type": "object",
                    "properties": .object(properties),
                    "required": .array(form.arguments.filter(\.isRequired).map { .string($0.key) }),
                    "additionalProperties": false,
                ]
            }
        }
        return forms.count == 1 ? forms[0] : ["anyOf": .array(forms)]
    }

    /// The argument's schema, its names listed as an enum when the app has them.
    static func schema(of argument: AnyStepArgument, vocabulary: Vocabulary) -> JSONValue {
        var schema = argument.schema
        if let kind = argument.nameKind, let names = vocabulary.names[kind], !names.isEmpty {
            schema = argument.namedSchema(names.sorted())
        }
        // An outline's `${column}` may stand for any value; the loader checks what it becomes.
        let reference: JSONValue = ["type": "string", "pattern": "\\$\\{"]
        var object: [String: JSONValue] = ["anyOf": [schema, reference]]
        if !argument.help.isEmpty { object["description"] = .string(argument.help) }
        return .object(object)
    }
}
