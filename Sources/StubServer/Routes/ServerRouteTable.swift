import ObjectManager
package import Diagnostics
package import Foundation

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
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            let location = SourceLocation(file: file, line: 1, column: 1)
            let message = RouteTableError.unreadableFile(file).message
            throw DiagnosticList([Diagnostic(location: location, message: message, sourceLine: nil)])
        }
        return try parse(yaml: text, file: file, fixtures: fixtures)
    }

    /// Parses `server.yml` text; `file` names it in diagnostics. Collects every error before throwing.
    package static func parse(yaml: String, file: String, fixtures: URL? = nil) throws(DiagnosticList)
        -> ServerRouteTable
    {
        var parser = RouteTableParser(text: yaml, file: file, fixtures: fixtures.map(FixtureFolder.init))
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
