package import Diagnostics
package import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
package import SharedValues
import StubServer
import YAMLSource

/// The API's OpenAPI document (3.0 or 3.1, YAML or JSON), as `openapi:` in `scenario-run.yml` names it:
/// read by OpenAPIKit (a 3.0 document converted to 3.1), which says what is wrong with a document it
/// cannot read — located here at the line and column of the key it names. Its operations come from
/// OpenAPIKit's model; the schemas are validated from the document's own JSON (``SchemaValidator``),
/// with `$ref`s into other files beside it loaded too.
package struct APIDocument: Sendable {
    /// One operation: `POST /reviews/{id}` and the response statuses it declares (`200`, `2XX`, `default`).
    package struct Operation: Sendable, Equatable, CustomStringConvertible {
        package var method: String
        package var path: String
        package var statuses: [String]
        /// The path's segments, `{name}` templates as they are (split once: every request is matched).
        let segments: [Substring]

        package init(method: String, path: String, statuses: [String]) {
            self.method = method
            self.path = path
            self.statuses = statuses
            self.segments = path.split(separator: "/")
        }

        package var description: String { "\(method) \(path)" }
    }

    /// The document's file, as it was named (relative to the project).
    package let file: String
    /// Its OpenAPI version as written (`3.0.3`, `3.1.0`).
    package let version: String
    /// Every operation, in the document's order.
    package let operations: [Operation]
    /// The schemas' validator over the document's JSON.
    package let validator: SchemaValidator

    /// Other files a document may pull in by `$ref`, at most.
    static let referencedFileLimit = 64

    /// Reads the document at `path` (relative to `directory` unless absolute); every problem is a located
    /// diagnostic.
    package static func load(path: String, directory: URL) throws(DiagnosticList) -> APIDocument {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        let (root, source) = try read(url, named: path)
        guard case .string(let version)? = root.json["openapi"] else {
            throw DiagnosticList([
                Diagnostic(
                    "This is not an OpenAPI document: it has no 'openapi: 3.x' version at its top."
                        + (root.json["swagger"] != nil
                            ? " Swagger 2.0 documents are not read; convert it to OpenAPI 3." : ""),
                    at: SourceLocation(file: path, line: root.node?.line ?? 1, column: root.node?.column ?? 1),
                    in: source
                )
            ])
        }
        let data = root.json.encoded(sortedKeys: false)
        let document: OpenAPIKit.OpenAPI.Document
        do {
            if version.hasPrefix("3.0") {
                let old = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
                document = old.convert(to: .v3_1_1)
            } else if version.hasPrefix("3.1") || version.hasPrefix("3.2") {
                document = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: data)
            } else {
                throw DiagnosticList([
                    Diagnostic(
                        "OpenAPI \(version) is not read: the document must be OpenAPI 3.0 or 3.1.",
                        at: location(of: ["openapi"], in: root.node, file: path, value: true),
                        in: source
                    )
                ])
            }
        } catch let error as DiagnosticList {
            throw error
        } catch {
            let problem = OpenAPIKit.OpenAPI.Error(from: error)
            let keys = problem.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            throw DiagnosticList([
                Diagnostic(
                    "The OpenAPI document cannot be read: \(problem.localizedDescription)",
                    at: location(of: keys, in: root.node, file: path, value: false),
                    in: source
                )
            ])
        }
        var operations: [Operation] = []
        for (path, item) in document.paths {
            guard let item = item.b else { continue }  // a path item by reference: not read
            for endpoint in item.endpoints {
                operations.append(
                    Operation(
                        method: endpoint.method.rawValue.uppercased(),
                        path: path.rawValue,
                        statuses: endpoint.operation.responses.keys.map(\.rawValue)
                    )
                )
            }
        }
        let others = try referencedFiles(of: root.json, beside: url.deletingLastPathComponent(), file: path)
        return APIDocument(
            file: path,
            version: version,
            operations: operations,
            validator: SchemaValidator(document: root.json, others: others)
        )
    }

    /// The operation a route of `method` and `path` (`/reviews/:id`) stands for: its segments match the
    /// operation's, a `{name}` template matching any segment and a route's `:name` placeholder only a
    /// template. A literal segment wins over a template, as OpenAPI says.
    package func operation(method: String, path: String) -> Operation? {
        let segments = path.split(separator: "/")
        let candidates = operations.filter { operation in
            operation.method == method.uppercased() && operation.segments.count == segments.count
                && zip(operation.segments, segments).allSatisfy { documented, route in
                    Self.isTemplate(documented) || (!route.contains(":") && documented == route)
                }
        }
        return candidates.min { Self.templateCount($0) < Self.templateCount($1) }
    }

    /// Operations of any method at a path (to say which methods it has, when the route's has none).
    package func methods(at path: String) -> [String] {
        let segments = path.split(separator: "/")
        return operations.filter { operation in
            operation.segments.count == segments.count
                && zip(operation.segments, segments).allSatisfy { documented, route in
                    Self.isTemplate(documented) || (!route.contains(":") && documented == route)
                }
        }.map(\.method)
    }

    /// The response `status` has under `operation` as the document declares it: the exact code, else its
    /// range (`2XX`), else `default`; nil when none is declared.
    package func declaredStatus(_ status: Int, of operation: Operation) -> String? {
        let exact = String(status)
        let range = "\(status / 100)XX"
        return [exact, range, range.lowercased(), "default"].first { operation.statuses.contains($0) }
    }

    /// The JSON schema of `operation`'s `status` response for `contentType`, resolving `$ref`s on the
    /// way; `.noBody` when the response declares no content, `.noSchema` when the content type is declared
    /// without a schema, `.otherTypes` when it declares content only of other types.
    package func responseSchema(of operation: Operation, status declared: String, contentType: String)
        -> ResponseSchema
    {
        let pointer = ["paths", operation.path, operation.method.lowercased(), "responses", declared]
        guard var response = walk(pointer) else { return .noBody }
        if case .string(let reference)? = response["$ref"], let resolved = validator.resolve(reference, in: nil) {
            response = resolved.schema
        }
        guard case .object(let content)? = response["content"], !content.isEmpty else { return .noBody }
        let key = APIDocument.mediaType(for: contentType, in: content)
        guard let key, let media = content[key] else { return .otherTypes(content.keys.sorted()) }
        guard let schema = media["schema"] else { return .noSchema }
        return .schema(schema)
    }

    /// What a response declares for a content type.
    package enum ResponseSchema: Equatable {
        case schema(JSONValue)
        case noSchema
        case noBody
        case otherTypes([String])
    }

    /// A parameter an operation declares (its own, and its path item's that it does not override).
    package struct Parameter {
        package var name: String
        /// `path parameter`, `query parameter` or `header` (cookies are not read).
        package var place: String
        package var required: Bool
        package var schema: JSONValue?
        /// Its `example`, when it gives one.
        package var example: JSONValue?
        /// How an array is written: `form` (a query's default), `spaceDelimited`, `pipeDelimited`, `simple`.
        package var style: String
        /// Whether each item of an array is a parameter of its own (`?tags=a&tags=b`) rather than one
        /// value listing them (`?tags=a,b`); `form` style's default.
        package var explode: Bool
    }

    /// The operation's parameters, `$ref`s resolved.
    package func parameters(of operation: Operation) -> [Parameter] {
        let places = ["path": "path parameter", "query": "query parameter", "header": "header"]
        var found: [String: Parameter] = [:]
        var order: [String] = []
        for level in [
            walk(["paths", operation.path]), walk(["paths", operation.path, operation.method.lowercased()]),
        ] {
            guard case .array(let list)? = level?["parameters"] else { continue }
            for var item in list {
                if case .string(let reference)? = item["$ref"], let resolved = validator.resolve(reference, in: nil) {
                    item = resolved.schema
                }
                guard case .string(let name)? = item["name"], case .string(let where_)? = item["in"],
                    let place = places[where_]
                else { continue }
                let key = where_ + " " + name
                if found[key] == nil { order.append(key) }
                let style = item["style"]?.stringValue ?? (where_ == "query" ? "form" : "simple")
                found[key] = Parameter(
                    name: name,
                    place: place,
                    required: item["required"] == .bool(true) || where_ == "path",
                    schema: item["schema"],
                    example: item["example"],
                    style: style,
                    explode: item["explode"].map { $0 == .bool(true) } ?? (style == "form")
                )
            }
        }
        return order.compactMap { found[$0] }
    }

    /// What an operation's request body declares.
    package struct RequestBody {
        package var required: Bool
        package var content: [String: JSONValue]
        package var types: [String] { content.keys.sorted() }

        /// The schema for a request of `contentType` (its own type, its family, `*/*`, or any JSON type
        /// for a JSON one); nil when none applies.
        package func schema(for contentType: String) -> JSONValue? {
            let key = APIDocument.mediaType(for: contentType, in: content)
            return key.flatMap { content[$0]?["schema"] }
        }
    }

    /// The operation's request body, `$ref` resolved; nil when it declares none.
    package func requestBody(of operation: Operation) -> RequestBody? {
        guard var body = walk(["paths", operation.path, operation.method.lowercased(), "requestBody"]) else {
            return nil
        }
        if case .string(let reference)? = body["$ref"], let resolved = validator.resolve(reference, in: nil) {
            body = resolved.schema
        }
        guard case .object(let content)? = body["content"] else { return nil }
        return RequestBody(required: body["required"] == .bool(true), content: content)
    }

    /// The key of `content` (a `content:` map) that describes a body of `contentType`: its own type,
    /// its family (`application/*`), `*/*`, or for a JSON type any JSON type.
    static func mediaType(for contentType: String, in content: [String: JSONValue]) -> String? {
        if content[contentType] != nil { return contentType }  // the common case, without building any string
        let wanted = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let family = wanted.split(separator: "/").first.map { "\($0)/*" } ?? ""
        return [wanted, family, "*/*"].first { content[$0] != nil }
            ?? (wanted.hasSuffix("json") ? content.keys.sorted().first { $0.hasSuffix("json") } : nil)
    }

    private func walk(_ keys: [String]) -> JSONValue? {
        var node: JSONValue? = validator.document
        for key in keys { node = node?[key] }
        return node
    }

    private static func isTemplate(_ segment: Substring) -> Bool { segment.contains("{") }

    private static func templateCount(_ operation: Operation) -> Int {
        operation.segments.filter { isTemplate($0) }.count
    }

    /// The YAML (or JSON: YAML reads it) of `url` as JSON, with the node tree for locating errors.
    private static func read(_ url: URL, named file: String) throws(DiagnosticList) -> (
        root: (json: JSONValue, node: YAMLNode?), source: SourceText
    ) {
        let text = try YAMLText.read(contentsOf: url.path, file: file)
        let node: YAMLNode?
        do {
            var composer = YAMLComposer()
            node = try composer.compose(text)
        } catch {
            throw DiagnosticList([error.diagnostic(file: file, source: text.source)])
        }
        guard let node, case .mapping = node.content else {
            throw DiagnosticList([
                Diagnostic(
                    "An OpenAPI document is a mapping, starting with 'openapi: 3.1.0'.",
                    at: SourceLocation(file: file, line: node?.line ?? 1, column: node?.column ?? 1),
                    in: text.source
                )
            ])
        }
        return ((JSONValue(yaml: node), node), text.source)
    }

    /// Where the key path `keys` (OpenAPIKit's coding path) is written: the deepest node that exists on
    /// the way, its key (or its value when `value`).
    private static func location(of keys: [String], in root: YAMLNode?, file: String, value: Bool) -> SourceLocation {
        var node = root
        var place: (line: Int, column: Int) = root.map { ($0.line, $0.column) } ?? (1, 1)
        for key in keys {
            guard let current = node else { break }
            if let pairs = current.pairs, let pair = pairs.first(where: { $0.key.string == key }) {
                place = value ? (pair.value.line, pair.value.column) : (pair.key.line, pair.key.column)
                node = pair.value
            } else if let items = current.items, let index = Int(key), items.indices.contains(index) {
                place = (items[index].line, items[index].column)
                node = items[index]
            } else {
                break
            }
        }
        return SourceLocation(file: file, line: place.line, column: place.column)
    }

    /// The files the document's `$ref`s name (`common.yaml#/Review`), read beside it — and theirs.
    private static func referencedFiles(of root: JSONValue, beside folder: URL, file: String) throws(DiagnosticList)
        -> [String: JSONValue]
    {
        var others: [String: JSONValue] = [:]
        var pending = references(in: root)
        while let name = pending.popLast() {
            guard others[name] == nil else { continue }
            guard others.count < referencedFileLimit else {
                throw DiagnosticList([
                    Diagnostic(
                        location: SourceLocation(file: file, line: 1, column: 1),
                        message: "The document's $refs name more than \(referencedFileLimit) files.",
                        sourceLine: nil
                    )
                ])
            }
            guard !name.contains("://") else { continue }  // a URL: never fetched
            let (json, _) = try read(folder.appendingPathComponent(name), named: name).root
            others[name] = json
            pending += references(in: json)
        }
        return others
    }

    /// The file parts of every `$ref` in `value`.
    private static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            var found = members.values.flatMap(references(in:))
            if case .string(let reference)? = members["$ref"],
                let hash = reference.firstIndex(of: "#") ?? Optional(reference.endIndex),
                hash != reference.startIndex
            {
                found.append(String(reference[..<hash]))
            }
            return found
        case .array(let items): return items.flatMap(references(in:))
        default: return []
        }
    }
}
