import Mustache
import SharedValues

/// A Mustache template (swift-mustache) in a route's answer — a `json:` value, a `body:`, a response
/// header, or a fixture with `template: true` — parsed once when `server.yml` is read and rendered per
/// request with ``TemplateValues``.
///
/// What a `{{name}}` inserts is escaped for where it lands (``Escaping``); `{{{name}}}` inserts it as is.
///
/// ```swift
/// let template = try ResponseTemplate(parsing: #"{"id": {{sequence}}}"#, escaping: .json)
/// template.names()                // [["sequence"]]
/// template.render(values)         // {"id": 3}
/// ```
package struct ResponseTemplate: Sendable, Equatable {
    /// How inserted text is escaped, chosen by the answer's content type.
    package enum Escaping: Sendable, Equatable {
        /// Inserted as is: plain text, header values, and `json:` values (the JSON writer escapes those).
        case none
        /// Escaped as inside a JSON string (`"` → `\"`, control characters as `\u00XX`): JSON bodies.
        case json
        /// Escaped for HTML (`<` → `&lt;` …): HTML bodies.
        case html

        /// The escaping for a response of this content type: JSON, HTML, or none.
        package init(contentType: String?) {
            let type = contentType?.lowercased() ?? ""
            self = type.contains("json") ? .json : type.contains("html") ? .html : .none
        }

        /// The swift-mustache pragma that selects it.
        fileprivate var pragma: String {
            switch self {
            case .none: "{{%CONTENT_TYPE:TEXT}}"
            case .json: "{{%CONTENT_TYPE:\(JSONStringEscaping.name)}}"
            case .html: ""
            }
        }
    }

    /// The text as written.
    package let source: String
    private let template: MustacheTemplate
    /// The dotted name when the whole text is exactly one `{{name}}`, which a `json:` value turns into a
    /// typed value.
    package let singleName: String?

    /// Parses `text`; throws the parser's message with the line and column in `text`.
    package init(parsing text: String, escaping: Escaping) throws(TemplateSyntaxError) {
        JSONStringEscaping.register
        let pragma = escaping.pragma
        do {
            template = try MustacheTemplate(string: pragma + text)
        } catch let error as MustacheTemplate.ParserError {
            let column = error.context.columnNumber - (error.context.lineNumber == 1 ? pragma.count : 0)
            throw TemplateSyntaxError(
                reason: "\(error.error)",
                line: error.context.lineNumber,
                column: max(1, column)
            )
        } catch {
            throw TemplateSyntaxError(reason: "\(error)", line: 1, column: 1)
        }
        source = text
        singleName = Self.singleName(in: text)
    }

    package static func == (lhs: ResponseTemplate, rhs: ResponseTemplate) -> Bool {
        lhs.source == rhs.source && lhs.singleName == rhs.singleName
    }

    /// Whether `text` holds a template at all (`{{`); text without one is served as written.
    package static func isTemplate(_ text: String) -> Bool {
        text.contains("{{")
    }

    /// The text for this request.
    package func render(_ values: TemplateValues) -> String {
        template.render(values.root)
    }

    /// Every name the template renders or opens a section on, as dotted segments, found by rendering it
    /// once against a probe that answers every name (swift-mustache keeps its tokens to itself).
    package func names() -> [[String]] {
        let probe = TemplateProbe()
        _ = template.render(probe)
        return probe.recorded
    }

    /// `request.json.id` for `{{request.json.id}}`, `{{ now }}` or `{{{now}}}`; `nil` for anything else.
    private static func singleName(in text: String) -> String? {
        var inner = Substring(text)
        guard inner.hasPrefix("{{"), inner.hasSuffix("}}") else { return nil }
        inner = inner.dropFirst(2).dropLast(2)
        if inner.hasPrefix("{"), inner.hasSuffix("}") { inner = inner.dropFirst().dropLast() }
        if inner.hasPrefix("&") { inner = inner.dropFirst() }
        let name = inner.trimmingCharacters(in: .whitespaces)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.allSatisfy(allowed.contains), !name.hasPrefix(".") else { return nil }
        return name
    }
}
