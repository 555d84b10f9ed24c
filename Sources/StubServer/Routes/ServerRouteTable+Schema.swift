package import SharedValues

extension ServerRouteTable {
    /// The JSON Schema (draft 2020-12) of `server.yml`: every key of a route and its type.
    package static var schema: JSONValue {
        let headers: JSONValue = ["type": "object", "additionalProperties": ["type": ["string", "number", "boolean"]]]
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "scenario-run stub server routes (Fixtures/server.yml)",
            "type": "object",
            "properties": [
                "routes": ["type": "array", "items": ["$ref": "#/$defs/route"]]
            ],
            "additionalProperties": false,
            "$defs": [
                "route": [
                    "type": "object",
                    "properties": [
                        "path": [
                            "type": "string", "pattern": "^/", "description": "A path pattern: /reviews/:reviewID",
                        ],
                        "method": ["type": "string", "description": "GET, POST… (any when left out)"],
                        "status": ["type": "integer", "minimum": 100, "maximum": 599, "default": 200],
                        "fixture": ["type": "string", "description": "A file of the fixture folder"],
                        "json": ["description": "A JSON body, written as YAML"],
                        "body": ["type": "string", "description": "A text body"],
                        "headers": headers,
                        "delay": [
                            "type": "number", "minimum": 0, "maximum": 86_400,
                            "description": "Seconds before answering",
                        ],
                        "fault": ["enum": ["connection reset", "empty response", "timeout"]],
                    ],
                    "required": ["path"],
                    "additionalProperties": false,
                ]
            ],
        ]
    }
}
