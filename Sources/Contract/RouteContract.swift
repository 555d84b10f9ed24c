package import Diagnostics
package import Foundation
package import SharedValues
package import StubServer

/// `check` with an OpenAPI document: every route of `server.yml` must be one of the document's
/// operations, answer only statuses the operation declares, and answer bodies its response schema
/// allows — each problem located at the route, with the place in the body. A route marked `contract: off`
/// (a test-only fault or slow path) is not held to it.
///
/// ```
/// Fixtures/server.yml:4:5: error: GET /reviews/:id → 200: Fixtures/review.json: $.rating: expected integer, found string "5" (openapi.yaml: GET /reviews/{id}, response 200)
/// ```
package enum RouteContract {
    /// How many body problems one answer reports before saying how many more there are.
    static let shownPerAnswer = 5
    /// The largest fixture read to be checked.
    static let fixtureLimit = 16 << 20

    /// Every way `routes` differ from `document`; `fixtures` is the fixture folder, `source` the text of
    /// `server.yml` (for the caret), `serverFile` its name as shown.
    package static func problems(
        of routes: [ServerRoute],
        against document: APIDocument,
        fixtures: URL,
        fixturesName: String,
        source: String?
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for route in routes where route.heldToContract {
            guard let location = route.location else { continue }
            func report(_ message: String) {
                found.append(
                    source.map { Diagnostic(message, at: location, in: $0) }
                        ?? Diagnostic(location: location, message: message, sourceLine: nil)
                )
            }
            let path = route.path.rawValue
            let label = "\(route.method ?? "Any method") \(path)"
            guard let method = route.method else {
                if document.methods(at: path).isEmpty {
                    report("\(label) is no path of \(document.file)." + nearestPaths(to: path, in: document))
                }
                continue
            }
            guard let operation = document.operation(method: method, path: path) else {
                let others = document.methods(at: path)
                let hint =
                    others.isEmpty
                    ? nearestPaths(to: path, in: document)
                    : " The document has \(others.joined(separator: ", ")) at that path."
                report("\(label) is not an operation of \(document.file).\(hint)")
                continue
            }
            let answers = route.responses.isEmpty ? [route.answer] : route.responses
            for answer in answers where answer.fault == nil {
                guard let declared = document.declaredStatus(answer.status, of: operation) else {
                    report(
                        "\(label) answers \(answer.status), which \(operation) does not declare (it declares "
                            + "\(operation.statuses.joined(separator: ", ")))."
                    )
                    continue
                }
                guard let contentType = answer.contentType else { continue }  // no body
                switch document.responseSchema(of: operation, status: declared, contentType: contentType) {
                case .schema(let schema):
                    let place: String
                    let violations: [SchemaValidator.Violation]
                    if let (body, named) = body(of: answer, fixtures: fixtures, shownAs: fixturesName) {
                        place = named
                        violations = document.validator.violations(of: body, against: schema)
                    } else {
                        place = templateName(of: answer, shownAs: fixturesName)
                        let outputs: (JSONValue, JSONValue?)?
                        do {
                            outputs = try TemplateShape.outputs(
                                of: answer,
                                placeholders: route.path.parameterNames,
                                fixtures: fixtures
                            )
                        } catch {
                            report(
                                "\(label) → \(answer.status): \(place) renders no JSON for a sample request: \(error)"
                            )
                            continue
                        }
                        guard let (first, second) = outputs else { continue }
                        let shape = TemplateShape(first, second)
                        violations = document.validator.violations(of: shape.output, against: schema).filter(
                            shape.keeps
                        )
                    }
                    let against = " (\(document.file): \(operation), response \(declared))"
                    for violation in violations.prefix(shownPerAnswer) {
                        report("\(label) → \(answer.status): \(place): \(violation)\(against)")
                    }
                    if violations.count > shownPerAnswer {
                        report(
                            "\(label) → \(answer.status): \(place): \(violations.count - shownPerAnswer) more problems"
                                + against
                        )
                    }
                case .otherTypes(let types):
                    report(
                        "\(label) answers \(answer.status) as \(contentType), but \(operation)'s \(declared) response "
                            + "is \(types.joined(separator: ", "))."
                    )
                case .noSchema, .noBody:
                    break
                }
            }
        }
        return found
    }

    /// An answer's body as JSON and how to name it (`Fixtures/review.json`, `json`, `body`); nil for no body, a
    /// template (rendered per request: ``TemplateShape`` checks those), or a body that is not JSON.
    package static func body(of answer: StubAnswer, fixtures: URL, shownAs folder: String) -> (JSONValue, String)? {
        switch answer.content {
        case .json(let data):
            return (try? JSONValue(parsing: data)).map { ($0, "json") }
        case .fixture(let name) where !answer.fixtureIsTemplate:
            guard (answer.contentType ?? "").contains("json") else { return nil }
            guard let data = fixtureData(name, in: fixtures), let json = try? JSONValue(parsing: data) else {
                return nil
            }
            return (json, folder + "/" + name)
        case .body(let text) where (answer.contentType ?? "").contains("json"):
            return (try? JSONValue(parsing: Data(text.utf8))).map { ($0, "body") }
        default:
            return nil
        }
    }

    /// The bytes of fixture `name`; nil when it is missing or over ``fixtureLimit`` (`check` says so elsewhere).
    static func fixtureData(_ name: String, in fixtures: URL) -> Data? {
        let url = fixtures.appendingPathComponent(name)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
            size <= fixtureLimit
        else { return nil }
        return try? Data(contentsOf: url)
    }

    /// How a template answer's body is named: `Fixtures/review.json (template)`, `json (template)`.
    private static func templateName(of answer: StubAnswer, shownAs folder: String) -> String {
        switch answer.content {
        case .fixture(let name): "\(folder)/\(name) (template)"
        case .jsonTemplate: "json (template)"
        default: "body (template)"
        }
    }

    /// ` Did you mean /reviews/{id}?` from the document's paths.
    private static func nearestPaths(to path: String, in document: APIDocument) -> String {
        let paths = Array(Set(document.operations.map(\.path)))
        let shown = path.replacing(/:([A-Za-z_][A-Za-z0-9_.]*)/) { "{\($0.1)}" }
        return Suggestions.didYouMean(shown, in: paths)
    }
}
