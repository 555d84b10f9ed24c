package import SharedValues

/// A `json:` answer whose string values may be templates. A value that is exactly one `{{name}}` takes
/// the JSON type of what it names (`"{{sequence}}"` → `3`); any other template renders to a string, which
/// the JSON writer escapes.
///
/// ```swift
/// let answer = try JSONTemplate(.object(["id": .string("{{sequence}}"), "text": .string("Hi {{request.json.name}}")]))
/// answer.render(values)   // {"id": 1, "text": "Hi Ann"}
/// ```
package indirect enum JSONTemplate: Sendable, Equatable {
    /// A value with no template in it.
    case value(JSONValue)
    /// A string value that is a template.
    case text(ResponseTemplate)
    case array([JSONTemplate])
    case object([String: JSONTemplate])

    /// The template form of `json`; throws at the first string that does not parse.
    package init(_ json: JSONValue) throws(TemplateSyntaxError) {
        switch json {
        case .string(let text) where ResponseTemplate.isTemplate(text):
            self = .text(try ResponseTemplate(parsing: text, escaping: .none))
        case .array(let elements) where elements.contains(where: Self.hasTemplate):
            var items: [JSONTemplate] = []
            for element in elements { items.append(try JSONTemplate(element)) }
            self = .array(items)
        case .object(let members) where members.values.contains(where: Self.hasTemplate):
            var items: [String: JSONTemplate] = [:]
            for (key, member) in members { items[key] = try JSONTemplate(member) }
            self = .object(items)
        default:
            self = .value(json)
        }
    }

    /// Whether a string somewhere in `json` holds a template.
    package static func hasTemplate(_ json: JSONValue) -> Bool {
        switch json {
        case .string(let text): ResponseTemplate.isTemplate(text)
        case .array(let elements): elements.contains(where: hasTemplate)
        case .object(let members): members.values.contains(where: hasTemplate)
        default: false
        }
    }

    /// The JSON for this request.
    package func render(_ values: TemplateValues) -> JSONValue {
        switch self {
        case .value(let json): json
        case .text(let template):
            template.singleName.map(values.jsonValue(named:)) ?? .string(template.render(values))
        case .array(let items): .array(items.map { $0.render(values) })
        case .object(let members): .object(members.mapValues { $0.render(values) })
        }
    }
}
