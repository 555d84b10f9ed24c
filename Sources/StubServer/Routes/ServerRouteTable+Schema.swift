package import SharedValues

extension ServerRouteTable {
    /// The JSON Schema (draft 2020-12) of `server.yml`: every key of a route and its type (docs/server.md).
    package static var schema: JSONValue {
        [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "scenario-run stub server routes (Fixtures/server.yml)",
            "type": "object",
            "properties": ["routes": ["type": "array", "items": routeSchema]],
            "additionalProperties": false,
        ]
    }

    /// One route: where it matches, when, and what it answers (also what `stub request` takes).
    package static var routeSchema: JSONValue {
        let text: JSONValue = ["type": ["string", "number", "boolean"]]
        let matcher: JSONValue = [
            "anyOf": [
                text,
                [
                    "type": "object", "properties": ["matches": ["type": "string"]], "required": ["matches"],
                    "additionalProperties": false,
                ],
                [
                    "type": "object", "properties": ["absent": ["const": true]], "required": ["absent"],
                    "additionalProperties": false,
                ],
            ]
        ]
        var answer: [String: JSONValue] = [
            "status": ["type": "integer", "minimum": 100, "maximum": 599, "default": 200],
            "fixture": ["type": "string", "description": "A file of the fixture folder"],
            "json": ["description": "A JSON body, written as YAML; {{…}} templates in its strings"],
            "body": ["type": "string", "description": "A text body; {{…}} templates"],
            "headers": ["type": "object", "additionalProperties": text, "description": "The response's headers"],
            "delay": ["type": "number", "minimum": 0, "maximum": 86_400, "description": "Seconds before answering"],
            "fault": ["enum": ["connection reset", "empty response", "timeout"]],
            "template": ["type": "boolean", "description": "Render the fixture file as a template"],
        ]
        let answerSchema: JSONValue = ["type": "object", "properties": .object(answer), "additionalProperties": false]
        answer["path"] = ["type": "string", "pattern": "^/", "description": "A path pattern: /reviews/:reviewID"]
        answer["method"] = ["type": "string", "description": "GET, POST… (any when left out)"]
        answer["when"] = [
            "type": "object",
            "properties": [
                "query": ["type": "object", "additionalProperties": matcher],
                "headers": ["type": "object", "additionalProperties": matcher],
                "json": ["description": "The request body contains it (objects as subsets)"],
                "json includes": ["description": "As json, arrays in any order"],
                "body contains": ["type": "string"],
            ],
            "additionalProperties": false,
        ]
        answer["state"] = [
            "type": "string", "description": "Answers only in this state (every scenario starts in 'started')",
        ]
        answer["then state"] = ["type": "string", "description": "The state after answering"]
        answer["responses"] = [
            "type": "array", "items": answerSchema, "description": "One answer per request, then the last repeats",
        ]
        answer["then"] = ["enum": ["cycle", "repeat"]]
        answer["contract"] = [
            "enum": ["on", "off"],
            "description": "off: a test-only route, not held to the API's OpenAPI document",
        ]
        return ["type": "object", "properties": .object(answer), "required": ["path"], "additionalProperties": false]
    }
}
