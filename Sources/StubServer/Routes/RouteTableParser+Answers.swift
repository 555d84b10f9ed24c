import Foundation
import SharedValues
import YAMLSource

/// Answers: a route's own keys (`status`, `fixture`, `json`, `body`, `headers`, `delay`, `fault`,
/// `template`), `responses:` (a list of such mappings), `then:`, and the templates in them.
extension RouteTableParser {
    /// The keys an answer may have, at a route's top level or in each of its `responses:`.
    static let answerKeys = ["status", "fixture", "json", "body", "headers", "delay", "fault", "template"]

    /// A template and where it was written, checked once the route's placeholders are known.
    struct TemplateSite {
        var template: ResponseTemplate
        var node: YAMLNode
        /// `Fixture 'x.json'` for a fixture file's template; `nil` for one written in `server.yml`.
        var fixture: String?
    }

    /// One answer as its keys are read.
    struct AnswerParse {
        var answer = StubAnswer()
        /// The answer keys written, in order.
        var keys: [YAMLNode] = []
        var contentKey: String?
        var templates: [TemplateSite] = []
        var bodyNode: YAMLNode?
        var fixtureNode: YAMLNode?
        var templateFlag: (value: Bool, node: YAMLNode)?
    }

    /// Reads `key` into `answer` when it is an answer key; `false` when it is not one.
    mutating func parseAnswerKey(_ key: String, keyNode: YAMLNode, value: YAMLNode, into answer: inout AnswerParse)
        -> Bool
    {
        guard Self.answerKeys.contains(key) else { return false }
        answer.keys.append(keyNode)
        switch key {
        case "status":
            answer.answer.status = parseStatus(value) ?? answer.answer.status
        case "fixture", "json", "body":
            if let first = answer.contentKey {
                report(.conflictingContent(first: first, second: key), at: keyNode)
                return true
            }
            answer.contentKey = key
            answer.answer.content = parseContent(key, value)
            if key == "json" { answer.templates += jsonTemplateSites(in: value) }
            if key == "body" { answer.bodyNode = value }
            if key == "fixture" { answer.fixtureNode = value }
        case "headers":
            answer.answer.headers = parseHeaders(value)
            for (name, headerValue) in value.pairs ?? [] {
                guard let text = headerValue.string, ResponseTemplate.isTemplate(text),
                    let index = answer.answer.headers.firstIndex(where: { $0.name == name.string && $0.value == text }),
                    let template = parseTemplate(text, escaping: .none, at: headerValue)
                else { continue }
                answer.answer.headerTemplates[index] = template
                answer.templates.append(TemplateSite(template: template, node: headerValue, fixture: nil))
            }
        case "delay":
            answer.answer.delay = parseDelay(value)
        case "fault":
            answer.answer.fault = parseFault(value)
        default:
            if let flag = parseBool(value, key: key) { answer.templateFlag = (flag, value) }
        }
        return true
    }

    /// Turns a templated body into a template (escaped as its content type says) and reads a `template:
    /// true` fixture, once every key of the answer is known.
    mutating func finishAnswer(_ answer: inout AnswerParse) {
        let escaping = ResponseTemplate.Escaping(contentType: answer.answer.contentType)
        if case .body(let text) = answer.answer.content, ResponseTemplate.isTemplate(text), let node = answer.bodyNode,
            let template = parseTemplate(text, escaping: escaping, at: node)
        {
            answer.answer.content = .bodyTemplate(template)
            answer.templates.append(TemplateSite(template: template, node: node, fixture: nil))
        }
        guard let (flag, flagNode) = answer.templateFlag, flag else { return }
        guard case .fixture(let name) = answer.answer.content, let node = answer.fixtureNode else {
            report(.templateWithoutFixture, at: flagNode)
            return
        }
        answer.answer.fixtureIsTemplate = true
        // A missing fixture was reported already.
        guard let fixtures, let url = fixtures.file(named: name), let data = try? Data(contentsOf: url) else { return }
        do {
            let template = try ResponseTemplate(parsing: String(decoding: data, as: UTF8.self), escaping: escaping)
            answer.templates.append(TemplateSite(template: template, node: node, fixture: name))
        } catch {
            report(.fixtureTemplateSyntax(fixture: name, error.message), at: node)
        }
    }

    /// `responses:`: a non-empty list of answers.
    mutating func parseResponses(_ node: YAMLNode, at keyNode: YAMLNode) -> [StubAnswer] {
        guard case .sequence(let items) = node.content else {
            report(.responsesNotAList(found: node.summary), at: node)
            return []
        }
        guard !items.isEmpty else {
            report(.responsesNotAList(found: "an empty list"), at: node)
            return []
        }
        var answers: [StubAnswer] = []
        for item in items {
            guard case .mapping(let mapping) = item.content else {
                report(.responseNotAMapping(found: item.summary), at: item)
                continue
            }
            var answer = AnswerParse()
            for (keyNode, value) in mapping {
                let key = keyNode.string ?? ""
                if !parseAnswerKey(key, keyNode: keyNode, value: value, into: &answer) {
                    report(.unknownResponseKey(keyNode.string ?? keyNode.summary), at: keyNode)
                }
            }
            finishAnswer(&answer)
            responsesTemplates += answer.templates
            answers.append(answer.answer)
        }
        return answers
    }

    /// `then: cycle` (start the responses over) or `then: repeat` (repeat the last, the default).
    mutating func parseThen(_ node: YAMLNode, hasResponses: Bool) -> Bool {
        guard let text = string(node, what: "'cycle' or 'repeat'") else { return false }
        guard ["cycle", "repeat"].contains(text) else {
            report(.unknownThen(text), at: node)
            return false
        }
        if !hasResponses { report(.thenWithoutResponses, at: node) }
        return text == "cycle"
    }

    /// Reports every name a template uses that the route cannot give it.
    mutating func checkTemplates(_ sites: [TemplateSite], placeholders: [String]) {
        for site in sites {
            for name in site.template.names() {
                guard let problem = TemplateValues.problem(with: name, placeholders: placeholders) else { continue }
                if let fixture = site.fixture {
                    report(.fixtureTemplateName(fixture: fixture, problem), at: site.node)
                } else {
                    report(.templateName(problem), at: site.node)
                }
            }
        }
    }

    /// `true`/`false` (and YAML's other spellings), or a diagnostic.
    mutating func parseBool(_ node: YAMLNode, key: String) -> Bool? {
        guard case .bool(let value)? = node.scalarValue else {
            report(.notABool(key: key, found: node.summary), at: node)
            return nil
        }
        return value
    }

    /// The template in `text`, or a diagnostic at `node`.
    private mutating func parseTemplate(_ text: String, escaping: ResponseTemplate.Escaping, at node: YAMLNode)
        -> ResponseTemplate?
    {
        do {
            return try ResponseTemplate(parsing: text, escaping: escaping)
        } catch {
            report(.templateSyntax(error.message), at: node)
            return nil
        }
    }

    /// The templates among a `json:` value's strings, each parsed (and reported) at its own node.
    private mutating func jsonTemplateSites(in node: YAMLNode) -> [TemplateSite] {
        switch node.content {
        case .scalar(let text, _):
            guard ResponseTemplate.isTemplate(text), let template = parseTemplate(text, escaping: .none, at: node)
            else {
                return []
            }
            return [TemplateSite(template: template, node: node, fixture: nil)]
        case .sequence(let items):
            return items.flatMap { jsonTemplateSites(in: $0) }
        case .mapping(let pairs):
            return pairs.flatMap { jsonTemplateSites(in: $0.value) }
        }
    }
}
