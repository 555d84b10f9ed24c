package import Diagnostics
package import Foundation
import SharedValues
import YAMLSource

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

    /// The first route that answers `method` on `path` (a raw request path, without query), with its bound
    /// parameters.
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
