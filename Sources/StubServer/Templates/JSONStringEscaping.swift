import Mustache
import SharedValues

/// swift-mustache's content type for JSON bodies: `{{name}}` inserts its text escaped as inside a JSON
/// string, so a value with quotes, backslashes or newlines cannot break the document.
struct JSONStringEscaping: MustacheContentType {
    /// The name of the `CONTENT_TYPE` pragma.
    static let name = "JSON"

    /// Registers the content type with swift-mustache, once per process, before any template is parsed.
    static let register: Void = MustacheContentTypes.register(JSONStringEscaping(), named: name)

    func escapeText(_ text: String) -> String {
        // The writer's own string escaping, without the quotes around it.
        String(JSONValue.string(text).text.dropFirst().dropLast())
    }
}
