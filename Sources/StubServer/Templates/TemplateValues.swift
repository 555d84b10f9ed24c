import Diagnostics
package import Foundation
import Mustache
package import SharedValues

/// What a response template may name, for one request:
///
/// | name | value |
/// | --- | --- |
/// | `request.path.NAME` | the route path's `:NAME` placeholder, decoded |
/// | `request.query.NAME` | the query parameter's first value, decoded |
/// | `request.headers.NAME` | the header's first value (name case-insensitive) |
/// | `request.json.KEY.PATH` | a value of the JSON body (`request.json` is the whole body; array elements by index) |
/// | `sequence` | how many times this route has answered in the scenario, this time included (from 1) |
/// | `now` | the time of the request, ISO 8601 in UTC |
package struct TemplateValues {
    /// Where `request.query`, `request.headers` and `request.json` come from.
    private enum Source {
        case request(IncomingRequest)
        /// A made-up request answering every name with the same value: `request.json.…` is `json` at any
        /// depth, every query parameter and header is `text`.
        case sample(text: String, json: JSONValue)
    }

    private let source: Source
    let parameters: [String: String]
    let sequence: Int
    let now: Date

    package init(request: IncomingRequest, parameters: [String: String], sequence: Int, now: Date = Date()) {
        self.source = .request(request)
        self.parameters = parameters
        self.sequence = sequence
        self.now = now
    }

    /// Values for a made-up request, to see what a template's output looks like without one (`check`
    /// holds it to the API's document): variant 0 and 1 differ in every value a request decides —
    /// `request.json.…` is `null` in one and `1` in the other at any depth, the path placeholders, query
    /// parameters and headers are `"1"` and `"2"`, `sequence` 1 and 2, `now` a day apart — so what differs
    /// between the two outputs is what the request decides.
    package static func sample(_ variant: Int, placeholders: [String]) -> TemplateValues {
        let text = variant == 0 ? "1" : "2"
        return TemplateValues(
            source: .sample(text: text, json: variant == 0 ? .null : .int(1)),
            parameters: Dictionary(placeholders.map { ($0, text) }, uniquingKeysWith: { first, _ in first }),
            sequence: variant == 0 ? 1 : 2,
            now: Date(timeIntervalSince1970: variant == 0 ? 1_767_225_600 : 1_767_312_000)
        )
    }

    private init(source: Source, parameters: [String: String], sequence: Int, now: Date) {
        self.source = source
        self.parameters = parameters
        self.sequence = sequence
        self.now = now
    }

    /// The names a template may use, for messages: the route's placeholders, then the rest.
    package static func knownNames(placeholders: [String]) -> [String] {
        placeholders.map { "request.path.\($0)" } + [
            "request.query.NAME", "request.headers.NAME", "request.json.KEY", "sequence", "now",
        ]
    }

    /// Why `name` (dotted segments) is not a name a template of a route with `placeholders` may use, or
    /// `nil` when it is.
    package static func problem(with name: [String], placeholders: [String]) -> String? {
        switch (name.first, name.count > 1 ? name[1] : nil) {
        case ("sequence"?, nil), ("now"?, nil): return nil
        case ("request"?, "path"?) where name.count == 3 && placeholders.contains(name[2]): return nil
        case ("request"?, "query"?) where name.count == 3, ("request"?, "headers"?) where name.count == 3:
            return nil
        case ("request"?, "json"?): return nil
        case ("request"?, "path"?) where name.count == 3:
            let placeholder = name[2]
            return "Unknown template name 'request.path.\(placeholder)': the route's path has no ':\(placeholder)'."
                + Suggestions.didYouMeanOrKnown(
                    "request.path.\(placeholder)",
                    in: placeholders.map { "request.path.\($0)" },
                    label: "It has"
                )
        default:
            let dotted = name.joined(separator: ".")
            // Suggest among the known names with the user's last segment in place of NAME and KEY.
            let last = name.count > 2 ? name[2...].joined(separator: ".") : "NAME"
            let candidates =
                placeholders.map { "request.path.\($0)" } + [
                    "request.query.\(last)", "request.headers.\(last)", "request.json.\(last)", "sequence", "now",
                ]
            let near = Suggestions.nearest(to: dotted, in: candidates, limit: 1)
            if !near.isEmpty { return "Unknown template name '\(dotted)'." + Suggestions.didYouMean(suggestions: near) }
            let known = knownNames(placeholders: placeholders).map { "'\($0)'" }.joined(separator: ", ")
            return "Unknown template name '\(dotted)'. Templates know \(known)."
        }
    }

    /// The object swift-mustache renders.
    var root: Any { Root(values: self) }

    /// The value a whole `json:` value of one `{{name}}` takes, with its JSON type: `sequence` a number,
    /// `request.json.…` whatever the body holds there, everything else a string; `null` when it names
    /// nothing in this request.
    package func jsonValue(named name: String) -> JSONValue {
        var current: Any? = root
        for segment in name.split(separator: ".") {
            current = (current as? any MustacheParent)?.child(named: String(segment))
        }
        switch current {
        case let int as Int: return .int(int)
        case let text as String: return .string(text)
        case let json as JSONScope: return json.value
        default: return .null
        }
    }

    // MARK: - Scopes

    private struct Root: MustacheParent {
        let values: TemplateValues

        func child(named name: String) -> Any? {
            switch name {
            case "request": RequestScope(values: values)
            case "sequence": values.sequence
            case "now": values.now.formatted(.iso8601)
            default: nil
            }
        }
    }

    private struct RequestScope: MustacheParent {
        let values: TemplateValues

        func child(named name: String) -> Any? {
            switch name {
            case "path": values.parameters
            case "query":
                switch values.source {
                case .request(let request): Lookup { request.queryValues($0).first }
                case .sample(let text, _): Lookup { _ in text }
                }
            case "headers":
                switch values.source {
                case .request(let request): Lookup { request.headerValues($0).first }
                case .sample(let text, _): Lookup { _ in text }
                }
            case "json":
                switch values.source {
                case .request(let request): try? JSONScope(value: request.json.get())
                case .sample(_, let json): JSONScope(value: json, everyMember: true)
                }
            default: nil
            }
        }
    }

    /// Query parameters and headers by name.
    private struct Lookup: MustacheParent {
        let value: (String) -> String?

        init(_ value: @escaping (String) -> String?) {
            self.value = value
        }

        func child(named name: String) -> Any? { value(name) }
    }

    /// A JSON value: members by key, elements by index; rendered as its text (a string without quotes,
    /// anything else as JSON); `null`, `false` and empty arrays are falsy in sections.
    struct JSONScope: MustacheParent, MustacheCustomRenderable {
        let value: JSONValue
        /// Whether every member and element is this same value (a sample request's body).
        var everyMember = false

        func child(named name: String) -> Any? {
            if everyMember { return self }
            switch value {
            case .object(let members): return members[name].map { JSONScope(value: $0) }
            case .array(let elements):
                guard let index = Int(name), elements.indices.contains(index) else { return nil }
                return JSONScope(value: elements[index])
            default: return nil
            }
        }

        var renderText: String {
            if case .string(let text) = value { return text }
            return value.text
        }

        var isNull: Bool {
            switch value {
            case .null, .bool(false): true
            case .array(let elements): elements.isEmpty
            default: false
            }
        }
    }
}
