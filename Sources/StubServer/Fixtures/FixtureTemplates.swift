import Foundation
import Synchronization

/// Fixture files served with `template: true`, parsed once per content: a file edited while the server
/// runs is parsed again on its next request.
final class FixtureTemplates: Sendable {
    private struct Parsed {
        var data: Data
        var escaping: ResponseTemplate.Escaping
        var template: Result<ResponseTemplate, TemplateSyntaxError>
    }

    private let parsed = Mutex<[String: Parsed]>([:])

    /// The template of fixture `name` whose contents are `data`.
    func template(named name: String, data: Data, escaping: ResponseTemplate.Escaping) -> Result<
        ResponseTemplate, TemplateSyntaxError
    > {
        if let hit = parsed.withLock({ $0[name] }), hit.escaping == escaping, hit.data == data {
            return hit.template
        }
        let template = Result { () throws(TemplateSyntaxError) in
            try ResponseTemplate(parsing: String(decoding: data, as: UTF8.self), escaping: escaping)
        }
        parsed.withLock { $0[name] = Parsed(data: data, escaping: escaping, template: template) }
        return template
    }
}
