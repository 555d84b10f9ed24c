package import Diagnostics
package import Foundation
import SharedValues
package import YAMLSource

/// The stub server's routes, in file order; the first matching route wins.
///
/// ```swift
/// let table = try ServerRouteTable.load(contentsOf: fixtures.appending(path: "server.yml"), fixtures: fixtures)
/// let (route, parameters) = table.match(method: "GET", path: "/articles/news/7")!
/// ```
package struct ServerRouteTable: Sendable, Equatable {
    /// The routes in the order they are tried.
    package var routes: [ServerRoute]

    package init(routes: [ServerRoute]) {
        self.routes = routes
    }

    /// Reads and validates a `server.yml`; with `fixtures`, every `fixture:` must name a file in that folder.
    package static func load(contentsOf url: URL, fixtures: URL? = nil) throws(DiagnosticList) -> ServerRouteTable {
        let file = url.relativePath
        return try parse(try YAMLText.read(contentsOf: url.path, file: file), file: file, fixtures: fixtures)
    }

    /// Parses `server.yml` text; `file` names it in diagnostics. Collects every error before throwing.
    package static func parse(yaml: String, file: String, fixtures: URL? = nil) throws(DiagnosticList)
        -> ServerRouteTable
    {
        try parse(try YAMLText(checking: yaml, file: file), file: file, fixtures: fixtures)
    }

    private static func parse(_ source: YAMLText, file: String, fixtures: URL?) throws(DiagnosticList)
        -> ServerRouteTable
    {
        var parser = RouteTableParser(source: source, file: file, fixtures: fixtures.map(FixtureFolder.init))
        let routes = parser.parse()
        guard parser.diagnostics.isEmpty else { throw DiagnosticList(parser.diagnostics) }
        return ServerRouteTable(routes: routes)
    }

    /// One route written outside `server.yml` — a scenario's `stub request:` — from its YAML mapping, with
    /// every check of a table's route; `file` names the scenario file in diagnostics (which carry no source
    /// line: the caller has the file's text).
    package static func route(from node: YAMLNode, file: String, fixtures: URL?) -> Result<ServerRoute, DiagnosticList>
    {
        guard let empty = try? YAMLText(checking: "") else { return .failure(DiagnosticList([])) }
        var parser = RouteTableParser(source: empty, file: file, fixtures: fixtures.map(FixtureFolder.init))
        let route = parser.parseRoute(node)
        guard let route, parser.diagnostics.isEmpty else { return .failure(DiagnosticList(parser.diagnostics)) }
        return .success(route)
    }

    /// The keys of a route's `when:`, which `expect request` takes too.
    package static var conditionKeys: [String] { RouteTableParser.whenKeys }

    /// Request matchers written outside `server.yml` — `expect request`'s `query`, `headers`, `json`,
    /// `json includes` and `body contains` — read with the checks of a route's `when:`.
    package static func conditions(from node: YAMLNode, file: String) -> Result<RequestConditions, DiagnosticList> {
        guard let empty = try? YAMLText(checking: "") else { return .failure(DiagnosticList([])) }
        var parser = RouteTableParser(source: empty, file: file, fixtures: nil)
        let conditions = parser.parseConditions(node)
        guard parser.diagnostics.isEmpty else { return .failure(DiagnosticList(parser.diagnostics)) }
        return .success(conditions)
    }

    /// The first route that answers `method` on `path` (a raw request path, without query), with its bound
    /// parameters, looking at neither `when:` nor `state:` (the server's own choice is ``StubSession``'s).
    package func match(method: String, path: String) -> (ServerRoute, parameters: [String: String])? {
        guard let segments = RequestPath.decodedSegments(of: path) else { return nil }
        return match(method: method, segments: segments)
    }

    func match(method: String, segments: [String]) -> (ServerRoute, parameters: [String: String])? {
        for route in routes where route.accepts(method: method) {
            if let parameters = route.path.match(segments: segments) {
                return (route, parameters)
            }
        }
        return nil
    }
}
