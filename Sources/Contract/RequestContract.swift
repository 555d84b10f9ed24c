package import Foundation
package import SharedValues
package import StubServer

/// A request the app sent, held to the API's document during a run (`contract:`): its operation, its
/// path, query and header parameters (required ones present, each value of its schema's type), and its
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
            guard let value = value(of: parameter, in: entry, operation: operation) else {
                if parameter.required {
                    found.append(
                        "\(request): \(parameter.place) '\(parameter.name)' is required, and missing" + against
                    )
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            for violation in validator.violations(of: typed(value, as: schema, validator: validator), against: schema) {
                found.append("\(request): \(parameter.place) '\(parameter.name)': \(violation.message)" + against)
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

    /// The parameter's value as sent: a path segment, the first value of a query item, a header.
    private static func value(
        of parameter: APIDocument.Parameter,
        in entry: JournalEntry,
        operation: APIDocument.Operation
    )
        -> String?
    {
        switch parameter.place {
        case "path parameter":
            let template = "{\(parameter.name)}"
            guard let index = operation.segments.firstIndex(where: { $0 == template }) else { return nil }
            let segments = entry.path.split(separator: "/")
            return segments.indices.contains(index) ? String(segments[index]).removingPercentEncoding : nil
        case "query parameter":
            let items = URLComponents(string: "?" + (entry.query ?? ""))?.queryItems ?? []
            return items.first { $0.name == parameter.name }.map { $0.value ?? "" }
        case "header":
            return entry.headers[field: parameter.name]
        default:
            return nil
        }
    }

    /// A parameter's text read as its schema's type (`7` as an integer), so the schema judges the value.
    private static func typed(_ text: String, as schema: JSONValue, validator: SchemaValidator) -> JSONValue {
        var schema = schema
        if case .string(let reference)? = schema["$ref"], let resolved = validator.resolve(reference, in: nil) {
            schema = resolved.schema
        }
        let types = SchemaValidator.types(of: schema) ?? []
        if types.contains("integer"), let number = Int(text) { return .int(number) }
        if types.contains("number"), let number = Double(text), number.isFinite { return .double(number) }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }
}
