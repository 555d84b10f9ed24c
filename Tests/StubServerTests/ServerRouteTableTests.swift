import Diagnostics
import Foundation
import ObjectManager
import TestSupport
import Testing

@testable import StubServer

/// `server.yml` parsing, every diagnostic by its exact text, and route matching.
struct ServerRouteTableTests {
    /// The rendered diagnostics of parsing `yaml` as `server.yml`, or a note that it parsed.
    private func errors(_ yaml: String, fixtures: URL? = nil) -> String {
        do {
            _ = try ServerRouteTable.parse(yaml: yaml, file: "server.yml", fixtures: fixtures)
            return "(no error)"
        } catch {
            return error.description
        }
    }

    @Test func parsesTheSpecExample() throws {
        let table = try ServerRouteTable.parse(
            yaml: """
                routes:
                  - { path: /review, method: POST, status: 201, fixture: review.json }
                  - { path: /422, status: 422, json: { errors: { code: 12345, message: Invalid object. } } }
                  - { path: /500, status: 500, body: "" }
                  - { path: /503, status: 503, body: "<html>x</html>", headers: { Content-Type: text/html } }
                  - { path: "/articles/:category/:id", fixture: article.json }
                  - { path: /slow, fixture: restaurants.json, delay: 0.25 }
                  - { path: /dropped, fault: connection reset }
                  - { path: /any, method: "*" }
                """,
            file: "server.yml"
        )
        #expect(table.routes.count == 8)
        let review = table.routes[0]
        #expect(review.path.description == "/review")
        #expect(review.method == "POST")
        #expect(review.status == 201)
        #expect(review.content == .fixture("review.json"))
        #expect(review.location == SourceLocation(file: "server.yml", line: 2, column: 5))
        #expect(
            table.routes[1].content == .json(Data(#"{"errors":{"code":12345,"message":"Invalid object."}}"#.utf8))
        )
        #expect(table.routes[2].content == .body(""))
        #expect(table.routes[3].headers == [HTTPHeader(name: "Content-Type", value: "text/html")])
        #expect(table.routes[4].method == nil)
        #expect(table.routes[5].delay == .milliseconds(250))
        #expect(table.routes[6].fault == .connectionReset)
        #expect(table.routes[7].method == nil)
    }

    @Test func jsonKeepsYAMLTypes() throws {
        let table = try ServerRouteTable.parse(
            yaml: """
                routes:
                  - path: /j
                    json:
                      z: [1, 2.5, true, null, "7", text with "quotes"]
                      a: { nested: ~ }
                """,
            file: "server.yml"
        )
        let expected = #"{"a":{"nested":null},"z":[1,2.5,true,null,"7","text with \"quotes\""]}"#
        #expect(table.routes.first?.content == .json(Data(expected.utf8)))
    }

    @Test func emptyFileHasNoRoutes() throws {
        #expect(try ServerRouteTable.parse(yaml: "", file: "server.yml").routes.isEmpty)
        #expect(try ServerRouteTable.parse(yaml: "routes:\n", file: "server.yml").routes.isEmpty)
    }

    // MARK: - Diagnostics, by exact text

    @Test func yamlSyntaxError() {
        #expect(
            errors("routes:\n  - { path: /a\n  - path: /b\n")
                == """
                server.yml:3:9: error: Invalid YAML: did not find expected ',' or '}' while parsing a flow mapping that started on line 2.
                  - path: /b
                        ^
                """
        )
    }

    @Test func topLevelNotAMapping() {
        #expect(
            errors("- path: /a\n")
                == """
                server.yml:1:1: error: Expected a mapping with a 'routes' list, found a list.
                - path: /a
                ^
                """
        )
    }

    @Test func unknownTopLevelKey() {
        #expect(
            errors("rotes:\n  - path: /a\n")
                == """
                server.yml:1:1: error: Unknown key 'rotes'. Did you mean 'routes'?
                rotes:
                ^
                """
        )
    }

    @Test func routeNotAMapping() {
        #expect(
            errors("routes:\n  - /review\n")
                == """
                server.yml:2:5: error: Expected a route mapping, found '/review'.
                  - /review
                    ^
                """
        )
    }

    @Test func missingPath() {
        #expect(
            errors("routes:\n  - { status: 201 }\n")
                == """
                server.yml:2:5: error: Route has no 'path'.
                  - { status: 201 }
                    ^
                """
        )
    }

    @Test func unknownRouteKeySuggestsTheNearest() {
        #expect(
            errors("routes:\n  - { path: /a, stauts: 201 }\n")
                == """
                server.yml:2:17: error: Unknown route key 'stauts'. Did you mean 'state' or 'status'?
                  - { path: /a, stauts: 201 }
                                ^
                """
        )
    }

    @Test func statusNotAnInteger() {
        #expect(
            errors("routes:\n  - path: /a\n    status: abc\n")
                == """
                server.yml:3:13: error: Expected an integer status, found 'abc'.
                    status: abc
                            ^
                """
        )
    }

    @Test func statusOutOfRange() {
        #expect(
            errors("routes:\n  - { path: /a, status: 999 }\n")
                == """
                server.yml:2:25: error: Status 999 is not between 100 and 599.
                  - { path: /a, status: 999 }
                                        ^
                """
        )
    }

    @Test func delayNotANumber() {
        #expect(
            errors("routes:\n  - { path: /a, delay: slow }\n")
                == """
                server.yml:2:24: error: Expected a delay in seconds from 0 to 86400 (a day), found 'slow'.
                  - { path: /a, delay: slow }
                                       ^
                """
        )
    }

    @Test func headersNotAMapping() {
        #expect(
            errors("routes:\n  - { path: /a, headers: [x] }\n")
                == """
                server.yml:2:26: error: Expected a mapping of headers, found a list.
                  - { path: /a, headers: [x] }
                                         ^
                """
        )
    }

    @Test func headerNamesMustBeTokens() {
        #expect(
            errors("routes:\n  - path: /a\n    headers: { Content Type: text/html, X-Ok: yes }\n")
                == """
                server.yml:3:16: error: Invalid header name 'Content Type'; use letters, digits and '-'.
                    headers: { Content Type: text/html, X-Ok: yes }
                               ^
                """
        )
    }

    @Test func unknownMethodSuggestsTheNearest() throws {
        #expect(
            errors("routes:\n  - { path: /a, method: FETCH }\n")
                == """
                server.yml:2:25: error: Unknown HTTP method 'FETCH'. Did you mean 'PATCH'?
                  - { path: /a, method: FETCH }
                                        ^
                """
        )
        let table = try ServerRouteTable.parse(
            yaml: "routes:\n  - { path: /a, method: post }\n  - { path: /b, method: '*' }\n",
            file: "server.yml"
        )
        #expect(table.routes.map(\.method) == ["POST", nil])
    }

    @Test func aliasBombsAndDeepNestingAreLocatedErrors() {
        let bomb = (1..<9).map { level in
            "x\(level): &r\(level) [" + Array(repeating: "*r\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(
            errors("x0: &r0 [a]\n" + bomb.joined() + "routes: *r8\n").hasPrefix(
                "server.yml:6:25: error: Aliases expand to more than 100,000 nodes."
            )
        )
        #expect(
            errors(
                "routes:\n  - { path: /a, json: " + String(repeating: "[", count: 300)
                    + String(repeating: "]", count: 300) + " }\n"
            )
            .hasPrefix("server.yml:2:276: error: Nesting deeper than 256 levels.")
        )
    }

    @Test func unknownFaultSuggestsTheNearest() {
        #expect(
            errors("routes:\n  - { path: /a, fault: connection rest }\n")
                == """
                server.yml:2:24: error: Unknown fault 'connection rest'. Did you mean 'connection reset'?
                  - { path: /a, fault: connection rest }
                                       ^
                """
        )
    }

    @Test func twoBodiesAreRefused() {
        #expect(
            errors("routes:\n  - { path: /a, fixture: a.json, body: x }\n")
                == """
                server.yml:2:34: error: Route has both 'fixture' and 'body'; use only one of 'fixture', 'json' and 'body'.
                  - { path: /a, fixture: a.json, body: x }
                                                 ^
                """
        )
    }

    @Test func missingFixtureWhenLoadedWithAFolder() throws {
        let temp = try TemporaryFolder()
        let fixtures = try temp.folder("Fixtures")
        try temp.write("{}", to: "Fixtures/here.json")
        try temp.write("secret", to: "outside.txt")
        let yaml = """
            routes:
              - { path: /a, fixture: nope.json }
              - { path: /b, fixture: here.json }
              - { path: /c, fixture: ../outside.txt }
            """
        #expect(
            errors(yaml, fixtures: fixtures)
                == """
                server.yml:2:26: error: Fixture 'nope.json' not found in 'Fixtures'. Did you mean 'here.json'?
                  - { path: /a, fixture: nope.json }
                                         ^
                server.yml:4:26: error: Fixture '../outside.txt' is outside 'Fixtures'; fixtures are read only from inside it.
                  - { path: /c, fixture: ../outside.txt }
                                         ^
                """
        )
        #expect(errors(yaml) == "(no error)")
    }

    @Test func collectsEveryErrorOfTheFile() {
        let yaml = """
            routes:
              - { path: /a, stauts: 201 }
              - { status: abc }
              - path: review
            """
        #expect(
            errors(yaml)
                == """
                server.yml:2:17: error: Unknown route key 'stauts'. Did you mean 'state' or 'status'?
                  - { path: /a, stauts: 201 }
                                ^
                server.yml:3:5: error: Route has no 'path'.
                  - { status: abc }
                    ^
                server.yml:3:15: error: Expected an integer status, found 'abc'.
                  - { status: abc }
                              ^
                server.yml:4:11: error: Expected a path starting with '/', found 'review'.
                  - path: review
                          ^
                """
        )
    }

    @Test func loadNamesTheFileAndReportsAnUnreadableOne() throws {
        let temp = try TemporaryFolder()
        let file = try temp.write("routes:\n  - { path: /a, delay: x }\n", to: "server.yml")
        #expect(throws: DiagnosticList.self) { try ServerRouteTable.load(contentsOf: file) }
        do {
            _ = try ServerRouteTable.load(contentsOf: file)
        } catch {
            #expect(error.diagnostics.map(\.location.file) == [file.relativePath])
            #expect(
                error.diagnostics.map(\.message) == ["Expected a delay in seconds from 0 to 86400 (a day), found 'x'."]
            )
        }
        let missing = temp.url.appending(path: "absent.yml")
        do {
            _ = try ServerRouteTable.load(contentsOf: missing)
            Issue.record("An absent file loaded")
        } catch {
            #expect(
                error.description
                    == "\(missing.relativePath):1:1: error: Cannot read this file."
            )
        }
    }

    // MARK: - Matching

    @Test func matchesFirstRouteWithParametersAndMethods() throws {
        let table = ServerRouteTable(routes: [
            ServerRoute(path: "/review", method: "POST", status: 201),
            ServerRoute(path: "/articles/:category/:id", method: "get"),
            ServerRoute(path: "/review", status: 405),
            ServerRoute(path: "/anything", method: "*"),
        ])
        let post = try #require(table.match(method: "post", path: "/review"))
        #expect(post.0.status == 201)
        let get = try #require(table.match(method: "GET", path: "/review"))
        #expect(get.0.status == 405)
        let article = try #require(table.match(method: "GET", path: "/articles/world%20news/42"))
        #expect(article.parameters == ["category": "world news", "id": "42"])
        #expect(table.match(method: "POST", path: "/articles/world/42") == nil)
        #expect(table.match(method: "GET", path: "/articles/world") == nil)
        #expect(table.match(method: "DELETE", path: "/anything")?.0.path.description == "/anything")
        #expect(table.match(method: "GET", path: "/nothing") == nil)
    }

    @Test func contentTypeIsInferredFromTheExtension() {
        #expect(MIMEType.forFile(named: "a.json") == "application/json")
        #expect(MIMEType.forFile(named: "dir/page.HTML") == "text/html")
        #expect(MIMEType.forFile(named: "notes.txt") == "text/plain")
        #expect(MIMEType.forFile(named: "feed.xml") == "application/xml")
        #expect(MIMEType.forFile(named: "logo.png") == "image/png")
        #expect(MIMEType.forFile(named: "blob.bin") == "application/octet-stream")
        #expect(MIMEType.forFile(named: "README") == "application/octet-stream")
        #expect(MIMEType.forFile(named: ".hidden") == "application/octet-stream")
    }
}
