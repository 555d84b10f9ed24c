package import SharedValues

extension RunSettings {
    /// The JSON Schema (draft 2020-12) of `scenario-run.yml`: every key, its type and its default.
    package static var schema: JSONValue {
        let seconds: JSONValue = ["type": "number", "exclusiveMinimum": 0, "maximum": 86_400]
        let names: JSONValue = ["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]]
        func described(_ schema: JSONValue, _ text: String, default value: JSONValue) -> JSONValue {
            guard case .object(var object) = schema else { return schema }
            object["description"] = .string(text)
            object["default"] = value
            return .object(object)
        }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "scenario-run settings (scenario-run.yml)",
            "type": ["object", "null"],
            "properties": [
                "step timeout": described(seconds, "Seconds a waiting step may keep retrying", default: 10),
                "retry interval": described(seconds, "Seconds between retries of a waiting step", default: 0.05),
                "settle time": described(
                    ["anyOf": [["type": "number", "minimum": 0, "maximum": 86_400], ["enum": ["off"]]]],
                    "Seconds nothing may run or change before a failing expectation gives up early; off waits out the timeout",
                    default: 0.5
                ),
                "default set up": described(
                    names,
                    "Steps run before every scenario",
                    default: ["set up the test environment"]
                ),
                "default tear down": described(
                    names,
                    "Steps run after every scenario, even a failed one",
                    default: ["tear down the test environment"]
                ),
                "fixtures": described(["type": "string"], "The fixture folder", default: "Fixtures"),
                "scenarios": described(
                    ["type": "string"],
                    "The folder searched for scenario files",
                    default: "Scenarios"
                ),
                "exclude": described(
                    names,
                    "Folders skipped when searching, unless named on the command line",
                    default: ["Scenarios/examples-failing", "Scenarios/examples-broken"]
                ),
                "fail fast": described(["type": "boolean"], "Stop after the first failing scenario", default: false),
                "unmatched requests": described(
                    ["enum": ["fail", "warn", "off"]],
                    "What a request no stub-server route answers does: fail the scenario's leak check, warn in its log, or nothing",
                    default: "warn"
                ),
                "leaks": described(
                    ["enum": ["fail", "warn", "off"]],
                    "What check for leaks does with what a scenario left behind",
                    default: "fail"
                ),
            ],
            "additionalProperties": false,
        ]
    }
}
