import Foundation
import SharedValues
package import StubServer

/// A request the app sent, held to the API's document during a run (`contract:`): its operation, its
/// path, query and header parameters (required ones present, each value of its schema's type, an array's
/// items from a repeated query item or a delimited value), and its
/// JSON body against the operation's request schema — Prism's validation proxy, inside the run.
///
/// ```
/// POST /reviews: body $.rating: expected integer, found string "5" (openapi.yaml: POST /reviews)
/// ```
package enum RequestContract {
    /// Every way `entry` breaks `document`; empty when it keeps to it.
    package static func violations(of entry: JournalEntry, against document: APIDocument) -> [String] {
        let request = "\(entry.method) \(entry.path)"
        guard let operation = document.operation(method: entry.method, path: entry.path) else {
            let methods = document.methods(at: entry.path)
            return [
                "\(request) is no operation of \(document.file)"
                    + (methods.isEmpty ? "." : " (it has \(methods.joined(separator: ", ")) at that path).")
            ]
        }
        let against = " (\(document.file): \(operation))"
        var found: [String] = []
        let validator = document.validator
        for parameter in document.parameters(of: operation) {
            let values = values(of: parameter, in: entry, operation: operation)
            guard let first = values.first else {
                if parameter.required {
                    found.append(
                        "\(request): \(parameter.place) '\(parameter.name)' is required, and missing" + against
                    )
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            let value = typed(first, all: values, of: parameter, as: schema, validator: validator)
            for violation in validator.violations(of: value, against: schema) {
                // `$[1]` of `tags` is `tags[1]`.
                let place = parameter.name + violation.path.dropFirst()
                found.append("\(request): \(parameter.place) '\(place)': \(violation.message)" + against)
            }
        }
        if let body = document.requestBody(of: operation) {
            let contentType = entry.headers[field: "Content-Type"] ?? ""
            if entry.bodyLength == 0 {
                if body.required { found.append("\(request): the request body is required, and missing" + against) }
            } else if !entry.isBodyTruncated, let schema = body.schema(for: contentType) {
                if let json = try? JSONValue(parsing: entry.body) {
                    for violation in validator.violations(of: json, against: schema) {
                        found.append("\(request): body \(violation)" + against)
                    }
                } else if contentType.contains("json") {
                    found.append("\(request): the body is not JSON" + against)
                }
            } else if !body.types.isEmpty, body.schema(for: contentType) == nil, !entry.isBodyTruncated {
                found.append(
                    "\(request): the body is \(contentType.isEmpty ? "of no Content-Type" : contentType), expected "
                        + body.types.joined(separator: ", ") + against
                )
            }
        }
        return found
    }

    /// The parameter's values as sent: a path segment, every value of a repeated query item, a header;
    /// empty when it was not sent.
    private static func values(
        of parameter: APIDocument.Parameter,
        in entry: JournalEntry,
        operation: APIDocument.Operation
    )
        -> [String]
    {
        switch parameter.place {
        case "path parameter":
            let template = "{\(parameter.name)}"
            guard let index = operation.segments.firstIndex(where: { $0 == template }) else { return [] }
            let segments = entry.path.split(separator: "/")
            guard segments.indices.contains(index), let value = String(segments[index]).removingPercentEncoding
            else { return [] }
            return [value]
        case "query parameter":
            let items = URLComponents(string: "?" + (entry.query ?? ""))?.queryItems ?? []
            return items.filter { $0.name == parameter.name }.map { $0.value ?? "" }
        case "header":
            return entry.headers[field: parameter.name].map { [$0] } ?? []
        default:
            return []
        }
    }

    /// A parameter's value read as its schema's type, so the schema judges it: an array schema's items from
    /// each value of a repeated query item (`?tags=a&tags=b`, `explode`), else from the first value split at
    /// the style's delimiter (`?ids=1,2`), each read as the item schema's type.
    private static func typed(
        _ first: String,
        all: [String],
        of parameter: APIDocument.Parameter,
        as schema: JSONValue,
        validator: SchemaValidator
    ) -> JSONValue {
        let schema = resolved(schema, validator: validator)
        guard SchemaValidator.types(of: schema)?.contains("array") == true else {
            return typed(first, as: schema, validator: validator)
        }
        let items: [String]
        if parameter.place == "query parameter" && parameter.explode {
            items = all
        } else if first.isEmpty {
            items = []
        } else {
            let delimiters: [String: Character] = ["spaceDelimited": " ", "pipeDelimited": "|"]
            let delimiter = delimiters[parameter.style] ?? ","
            items = first.split(separator: delimiter, omittingEmptySubsequences: false).map(String.init)
        }
        let itemSchema = schema["items"] ?? .bool(true)
        return .array(items.map { typed($0, as: itemSchema, validator: validator) })
    }

    /// The schema a `$ref` names, else the schema.
    private static func resolved(_ schema: JSONValue, validator: SchemaValidator) -> JSONValue {
        guard case .string(let reference)? = schema["$ref"] else { return schema }
        return validator.resolve(reference, in: nil)?.schema ?? schema
    }

    /// A parameter's text read as its schema's type (`7` as an integer), so the schema judges the value.
    private static func typed(_ text: String, as schema: JSONValue, validator: SchemaValidator) -> JSONValue {
        let schema = resolved(schema, validator: validator)
        let types = SchemaValidator.types(of: schema) ?? []
        if types.contains("integer"), let number = Int(text) { return .int(number) }
        if types.contains("number"), let number = Double(text), number.isFinite { return .double(number) }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }
}
