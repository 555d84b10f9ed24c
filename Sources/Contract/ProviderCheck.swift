package import Foundation
package import SharedValues
package import StubServer

/// `scenario-run verify`: one request per route of `server.yml`, sent to the real provider, and its
/// answer compared with the route's — the status equal, the body the same *shape* as the fixture (Pact's
/// type matching). This is the part without I/O: what to send for a route, and how to judge the answer.
package enum ProviderCheck {
    /// What to send for a route, or why it is not sent.
    package enum Plan: Equatable {
        case send(method: String, target: String, headers: [HTTPHeader], body: Data?)
        case skip(String)
    }

    /// The methods sent without `--allow-writes`.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]

    /// The request for `route` (none for a `contract: off` route, a fault, or a write without
    /// `--allow-writes`): its method (GET when it has none), its path with each placeholder given
    /// an example (the document's, else `1`), the query values its `when:` requires, the headers it
    /// requires as exact values, and its `when: { json: }` as the body.
    package static func plan(
        for route: ServerRoute,
        document: APIDocument?,
        allowWrites: Bool,
        headers: [HTTPHeader]
    ) -> Plan {
        let method = route.method ?? "GET"
        if !route.heldToContract {
            return .skip("it is marked contract: off, a route of the tests, not of the API")
        }
        if route.answer.fault != nil && route.responses.isEmpty {
            return .skip("it answers with a fault, not an answer a provider gives")
        }
        if !allowWrites, !safeMethods.contains(method) {
            return .skip("a \(method) changes the provider's data: --allow-writes sends it")
        }
        // A placeholder takes the example of the document's template at the same place (names may differ).
        var examples: [String: String] = [:]
        var documented: [Substring] = []
        if let document, let operation = document.operation(method: method, path: route.path.rawValue) {
            examples = document.examples(of: operation)
            documented = operation.segments
        }
        var index = 0
        let path = route.path.rawValue.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard !segment.isEmpty else { return "" }
            defer { index += 1 }
            guard segment.hasPrefix(":") else { return String(segment) }
            let template = documented.indices.contains(index) ? documented[index].dropFirst().dropLast() : ""
            let value = examples[String(template)] ?? examples[String(segment.dropFirst())] ?? "1"
            return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "1"
        }.joined(separator: "/")
        var query = URLComponents()
        query.queryItems = route.conditions.query.compactMap { item in
            if case .equals(let value) = item.match.kind { return URLQueryItem(name: item.name, value: value) }
            return nil
        }
        let target = path + (query.queryItems?.isEmpty == false ? "?" + (query.percentEncodedQuery ?? "") : "")
        var sent = headers
        for (name, match) in route.conditions.headers {
            if case .equals(let value) = match.kind, sent[field: name] == nil {
                sent.append(HTTPHeader(name: name, value: value))
            }
        }
        let body = route.conditions.json.map { $0.encoded() }
        if body != nil, sent[field: "Content-Type"] == nil {
            sent.append(HTTPHeader(name: "Content-Type", value: "application/json"))
        }
        return .send(method: method, target: target, headers: sent, body: body)
    }

    /// Why the provider's answer differs from the route's: its status, then its body's shape against the
    /// route's JSON body (`expected`); empty when they agree.
    package static func differences(
        expectedStatus: Int,
        expected: JSONValue?,
        status: Int,
        body: Data
    ) -> [String] {
        guard status == expectedStatus else {
            return ["the provider answered \(status), the route \(expectedStatus)"]
        }
        guard let expected else { return [] }
        guard let actual = try? JSONValue(parsing: body) else {
            return ["the provider's body is not JSON; the route's is"]
        }
        return shapeDifferences(expected, actual, at: "$").prefix(20).map(\.description)
    }

    /// Pact's type matching: the same JSON type at every place; every key of the expected object present
    /// (the provider may add keys); an array's items like the expected first item.
    static func shapeDifferences(_ expected: JSONValue, _ actual: JSONValue, at path: String)
        -> [SchemaValidator.Violation]
    {
        func kind(_ value: JSONValue) -> String {
            switch value {
            case .null: return "null"
            case .bool: return "boolean"
            case .int, .double: return "number"
            case .string: return "string"
            case .array: return "array"
            case .object: return "object"
            }
        }
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            return want.keys.sorted().flatMap { key -> [SchemaValidator.Violation] in
                let place = SchemaValidator.member(path, key)
                guard let value = got[key] else {
                    return [SchemaValidator.Violation(path: place, message: "is missing from the provider's answer")]
                }
                return shapeDifferences(want[key] ?? .null, value, at: place)
            }
        case (.array(let want), .array(let got)):
            guard let first = want.first else { return [] }
            guard !got.isEmpty else {
                return [SchemaValidator.Violation(path: path, message: "expected items like the fixture's, found none")]
            }
            return got.indices.prefix(3).flatMap { shapeDifferences(first, got[$0], at: "\(path)[\($0)]") }
        case (.null, _):
            return []  // a fixture's null says nothing about the type
        default:
            guard kind(expected) != kind(actual) else { return [] }
            return [
                SchemaValidator.Violation(
                    path: path,
                    message: "expected \(kind(expected)), found \(SchemaValidator.describe(actual))"
                )
            ]
        }
    }
}

extension APIDocument {
    /// Example values of an operation's path parameters: each parameter's `example`, else its schema's
    /// `example`, `default` or first `enum` value.
    package func examples(of operation: Operation) -> [String: String] {
        var found: [String: String] = [:]
        for parameter in parameters(of: operation) where parameter.place == "path parameter" {
            let candidates =
                [parameter.example, parameter.schema?["example"], parameter.schema?["default"]]
                + [parameter.schema?["enum"].flatMap { if case .array(let all) = $0 { all.first } else { nil } }]
            let value = candidates.compactMap { $0 }.first { value in
                switch value {
                case .string, .int, .double, .bool: true
                default: false
                }
            }
            if let value { found[parameter.name] = value.stringValue ?? value.text }
        }
        return found
    }
}
