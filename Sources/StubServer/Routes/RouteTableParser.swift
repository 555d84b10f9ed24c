import Diagnostics
import Foundation
import SharedValues
import YAMLSource

/// Turns `server.yml` text into routes, collecting a diagnostic for every problem it finds.
struct RouteTableParser {
    let source: YAMLText
    let file: String
    let fixtures: FixtureFolder?
    private(set) var diagnostics: [Diagnostic] = []
    /// The templates of the current route's `responses:`, checked once its path is known.
    var responsesTemplates: [TemplateSite] = []

    init(source: YAMLText, file: String, fixtures: FixtureFolder?) {
        self.source = source
        self.file = file
        self.fixtures = fixtures
    }

    mutating func parse() -> [ServerRoute] {
        let root: YAMLNode?
        do {
            var composer = YAMLComposer()
            root = try composer.compose(source)
        } catch {
            diagnostics.append(error.diagnostic(file: file, source: source.source))
            return []
        }
        guard let root else { return [] }
        guard case .mapping(let top) = root.content else {
            report(.notAMapping(found: root.summary), at: root)
            return []
        }
        var routes: [ServerRoute] = []
        for (key, value) in top {
            guard key.string == "routes" else {
                report(.unknownTopLevelKey(key.string ?? key.summary), at: key)
                continue
            }
            if value.isNull { continue }
            guard case .sequence(let list) = value.content else {
                report(.routesNotAList(found: value.summary), at: value)
                continue
            }
            for entry in list {
                if let route = parseRoute(entry) { routes.append(route) }
            }
        }
        return routes
    }

    // MARK: - One route

    /// One route of the table, or of a scenario's `stub request:` step; `nil` after reporting why not.
    mutating func parseRoute(_ node: YAMLNode) -> ServerRoute? {
        guard case .mapping(let mapping) = node.content else {
            report(.routeNotAMapping(found: node.summary), at: node)
            return nil
        }
        let start = diagnostics.count
        var path: String?
        var hasPathKey = false
        var route = ServerRoute(path: "/", location: location(of: node))
        var answer = AnswerParse()
        var responses: (key: YAMLNode, value: YAMLNode)?
        var then: YAMLNode?
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "path":
                hasPathKey = true
                path = parsePath(value)
            case "method":
                if let method = parseMethod(value) { route.method = method == "*" ? nil : method }
            case "when":
                route.conditions = parseConditions(value)
            case "state":
                route.state = string(value, what: "a state name")
            case "then state":
                route.nextState = string(value, what: "a state name")
            case "responses":
                responses = (keyNode, value)
            case "then":
                then = value
            case "contract":
                route.heldToContract = parseContract(value)
            default:
                if !parseAnswerKey(key, keyNode: keyNode, value: value, into: &answer) {
                    report(.unknownRouteKey(keyNode.string ?? keyNode.summary), at: keyNode)
                }
            }
        }
        if !hasPathKey {
            report(.missingPath, at: node)
        }
        finishAnswer(&answer)
        route.answer = answer.answer
        if let (keyNode, value) = responses {
            if let first = answer.keys.first {
                report(.answerBesideResponses(first.string ?? ""), at: first)
            }
            route.responses = parseResponses(value, at: keyNode)
        }
        if let then {
            route.cycles = parseThen(then, hasResponses: responses != nil)
        }
        guard let path, diagnostics.count == start else { return nil }
        route.path = PathPattern(path)
        checkTemplates(answer.templates + responsesTemplates, placeholders: route.path.parameterNames)
        responsesTemplates = []
        guard diagnostics.count == start else { return nil }
        return route
    }

    /// `contract: off` (the route is not held to the API's document) or `on`, the default.
    private mutating func parseContract(_ node: YAMLNode) -> Bool {
        switch node.string {
        case "off": return false
        case "on": return true
        default:
            report(.notAString(what: "'on' or 'off'", found: node.summary), at: node)
            return true
        }
    }

    private mutating func parsePath(_ node: YAMLNode) -> String? {
        guard let path = string(node, what: "a path starting with '/'") else { return nil }
        guard path.hasPrefix("/") else {
            report(.pathNotAbsolute(found: node.summary), at: node)
            return nil
        }
        return path
    }

    /// An upper-cased HTTP method (one the object manager can send), or `*`.
    private mutating func parseMethod(_ node: YAMLNode) -> String? {
        guard let method = string(node, what: "a method such as 'GET'") else { return nil }
        if method == "*" { return method }
        guard let known = HTTPMethod(name: method) else {
            report(.unknownMethod(method), at: node)
            return nil
        }
        return known.rawValue
    }

    mutating func parseStatus(_ node: YAMLNode) -> Int? {
        guard let status = node.string.flatMap({ Int($0) }) else {
            report(.statusNotAnInteger(found: node.summary), at: node)
            return nil
        }
        guard (100...599).contains(status) else {
            report(.statusOutOfRange(status), at: node)
            return nil
        }
        return status
    }

    mutating func parseDelay(_ node: YAMLNode) -> Duration? {
        guard let seconds = node.string.flatMap({ Double($0) }), let delay = Duration(checkedSeconds: seconds) else {
            report(.delayNotANumber(found: node.summary), at: node)
            return nil
        }
        return delay
    }

    mutating func parseFault(_ node: YAMLNode) -> StubFault? {
        guard let name = string(node, what: "a fault") else { return nil }
        guard let fault = StubFault(rawValue: name.lowercased()) else {
            report(.unknownFault(name), at: node)
            return nil
        }
        return fault
    }

    mutating func parseHeaders(_ node: YAMLNode) -> [HTTPHeader] {
        guard case .mapping(let mapping) = node.content else {
            report(.headersNotAMapping(found: node.summary), at: node)
            return []
        }
        var headers: [HTTPHeader] = []
        for (name, value) in mapping {
            let headerName = name.string ?? ""
            guard HTTPHeader.isToken(headerName) else {
                report(.invalidHeaderName(headerName), at: name)
                continue
            }
            guard let text = value.string else {
                report(.headerValueNotAScalar(name: headerName, found: value.summary), at: value)
                continue
            }
            // A line break would end the header on the wire (response splitting); NUL is never allowed.
            guard !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                report(.headerValueNotOneLine(name: headerName), at: value)
                continue
            }
            headers.append(HTTPHeader(name: headerName, value: text))
        }
        return headers
    }

    mutating func parseContent(_ key: String, _ node: YAMLNode) -> ServerRoute.Content {
        switch key {
        case "json":
            let json = JSONValue(yaml: node)
            guard JSONTemplate.hasTemplate(json) else { return .json(json.encoded()) }
            // A template that does not parse is reported at its own node (`templateSites`).
            return (try? JSONTemplate(json)).map { .jsonTemplate($0) } ?? .none
        case "body":
            guard let text = node.string else {
                report(.notAString(what: "a body text", found: node.summary), at: node)
                return .none
            }
            return .body(text)
        default:
            guard let name = string(node, what: "a fixture file name") else { return .none }
            if let fixtures, fixtures.file(named: name) == nil {
                report(.missingFixture(message: fixtures.message(for: name)), at: node)
            }
            return .fixture(name)
        }
    }

    // MARK: - Helpers

    /// The text of a scalar node, or a diagnostic saying `what` was expected.
    mutating func string(_ node: YAMLNode, what: String) -> String? {
        guard let text = node.string, !node.isNull else {
            report(.notAString(what: what, found: node.summary), at: node)
            return nil
        }
        return text
    }

    func location(of node: YAMLNode?) -> SourceLocation {
        SourceLocation(file: file, line: node?.line ?? 1, column: node?.column ?? 1)
    }

    mutating func report(_ error: RouteTableError, at node: YAMLNode?) {
        diagnostics.append(Diagnostic(error.message, at: location(of: node), in: source.source))
    }
}
