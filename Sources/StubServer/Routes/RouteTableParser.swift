import ObjectManager
import Diagnostics
import Foundation
import Yams

/// Turns `server.yml` text into routes, collecting a diagnostic for every problem it finds.
struct RouteTableParser {
    let text: String
    let file: String
    let fixtures: FixtureFolder?
    private(set) var diagnostics: [Diagnostic] = []

    init(text: String, file: String, fixtures: FixtureFolder?) {
        self.text = text
        self.file = file
        self.fixtures = fixtures
    }

    mutating func parse() -> [ServerRoute] {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            report(yamlError: error)
            return []
        } catch {
            report(.invalidYAML("\(error)"), at: nil)
            return []
        }
        guard let root else { return [] }
        guard case .mapping(let top) = root else {
            report(.notAMapping(found: Self.describe(root)), at: root)
            return []
        }
        var routes: [ServerRoute] = []
        for (key, value) in top {
            guard key.string == "routes" else {
                report(.unknownTopLevelKey(key.string ?? Self.describe(key)), at: key)
                continue
            }
            if case .scalar = value, value.null != nil { continue }
            guard case .sequence(let list) = value else {
                report(.routesNotAList(found: Self.describe(value)), at: value)
                continue
            }
            for entry in list {
                if let route = parseRoute(entry) { routes.append(route) }
            }
        }
        return routes
    }

    // MARK: - One route

    private mutating func parseRoute(_ node: Node) -> ServerRoute? {
        guard case .mapping(let mapping) = node else {
            report(.routeNotAMapping(found: Self.describe(node)), at: node)
            return nil
        }
        let start = diagnostics.count
        var path: String?
        var hasPathKey = false
        var route = ServerRoute(path: "/", location: location(of: node))
        var contentKey: String?
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "path":
                hasPathKey = true
                path = parsePath(value)
            case "method":
                if let method = string(value, what: "a method such as 'GET'") {
                    route.method = method == "*" ? nil : method.uppercased()
                }
            case "status":
                route.status = parseStatus(value) ?? route.status
            case "fixture", "json", "body":
                if let first = contentKey {
                    report(.conflictingContent(first: first, second: key), at: keyNode)
                    continue
                }
                contentKey = key
                route.content = parseContent(key, value)
            case "headers":
                route.headers = parseHeaders(value)
            case "delay":
                route.delay = parseDelay(value)
            case "fault":
                route.fault = parseFault(value)
            default:
                report(.unknownRouteKey(keyNode.string ?? Self.describe(keyNode)), at: keyNode)
            }
        }
        if !hasPathKey {
            report(.missingPath, at: node)
        }
        guard let path, diagnostics.count == start else { return nil }
        route.path = PathPattern(path)
        return route
    }

    private mutating func parsePath(_ node: Node) -> String? {
        guard let path = string(node, what: "a path starting with '/'") else { return nil }
        guard path.hasPrefix("/") else {
            report(.pathNotAbsolute(found: Self.describe(node)), at: node)
            return nil
        }
        return path
    }

    private mutating func parseStatus(_ node: Node) -> Int? {
        guard case .scalar = node, let status = node.int else {
            report(.statusNotAnInteger(found: Self.describe(node)), at: node)
            return nil
        }
        guard (100...599).contains(status) else {
            report(.statusOutOfRange(status), at: node)
            return nil
        }
        return status
    }

    private mutating func parseDelay(_ node: Node) -> Duration? {
        guard case .scalar = node, let seconds = node.float, let delay = Duration(checkedSeconds: seconds) else {
            report(.delayNotANumber(found: Self.describe(node)), at: node)
            return nil
        }
        return delay
    }

    private mutating func parseFault(_ node: Node) -> StubFault? {
        guard let name = string(node, what: "a fault") else { return nil }
        guard let fault = StubFault(rawValue: name.lowercased()) else {
            report(.unknownFault(name), at: node)
            return nil
        }
        return fault
    }

    private mutating func parseHeaders(_ node: Node) -> [HTTPHeader] {
        guard case .mapping(let mapping) = node else {
            report(.headersNotAMapping(found: Self.describe(node)), at: node)
            return []
        }
        var headers: [HTTPHeader] = []
        for (name, value) in mapping {
            let headerName = name.string ?? ""
            guard Self.isToken(headerName) else {
                report(.invalidHeaderName(headerName), at: name)
                continue
            }
            guard case .scalar(let scalar) = value else {
                report(.headerValueNotAScalar(name: headerName, found: Self.describe(value)), at: value)
                continue
            }
            headers.append(HTTPHeader(name: headerName, value: scalar.string))
        }
        return headers
    }

    private mutating func parseContent(_ key: String, _ node: Node) -> ServerRoute.Content {
        switch key {
        case "json":
            return .json(JSONValue(yaml: node).encoded())
        case "body":
            guard case .scalar(let scalar) = node else {
                report(.notAString(what: "a body text", found: Self.describe(node)), at: node)
                return .none
            }
            return .body(scalar.string)
        default:
            guard let name = string(node, what: "a fixture file name") else { return .none }
            if let fixtures, fixtures.file(named: name) == nil {
                report(.missingFixture(name: name, folder: fixtures.displayName), at: node)
            }
            return .fixture(name)
        }
    }

    // MARK: - Helpers

    /// The text of a scalar node, or a diagnostic saying `what` was expected.
    private mutating func string(_ node: Node, what: String) -> String? {
        guard case .scalar(let scalar) = node, Tag.Name(rawValue: node.tag.rawValue) != .null else {
            report(.notAString(what: what, found: Self.describe(node)), at: node)
            return nil
        }
        return scalar.string
    }

    /// Whether `name` is an HTTP token (RFC 9110), as header names must be.
    static func isToken(_ name: String) -> Bool {
        let symbols = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        return !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || symbols.contains($0))
            }
    }

    /// How a node is named in messages: a scalar by its text in quotes, others by their kind.
    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            return Tag.Name(rawValue: node.tag.rawValue) == .null ? "nothing" : "'\(scalar.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    private func location(of node: Node?) -> SourceLocation {
        SourceLocation(file: file, line: node?.mark?.line ?? 1, column: node?.mark?.column ?? 1)
    }

    private mutating func report(_ error: RouteTableError, at node: Node?) {
        diagnostics.append(Diagnostic(error.message, at: location(of: node), in: text))
    }

    private mutating func report(yamlError: YamlError) {
        let problem: String
        let mark: Mark?
        switch yamlError {
        case .scanner(let context, let text, let errorMark, _),
            .parser(let context, let text, let errorMark, _),
            .composer(let context, let text, let errorMark, _):
            problem = (context.map { $0.text + ", " } ?? "") + text
            mark = errorMark
        case .duplicatedKeysInMapping(let duplicates, let context):
            problem = "duplicate key " + duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            mark = context.mark
        default:
            problem = "\(yamlError)"
            mark = nil
        }
        let location = SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
        diagnostics.append(Diagnostic(RouteTableError.invalidYAML(problem).message, at: location, in: text))
    }
}
