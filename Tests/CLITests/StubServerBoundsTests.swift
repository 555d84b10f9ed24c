import Foundation
import ObjectManager
import TestSupport
import Testing

/// The stub server and `check` on hostile tables and requests, through the built binary: a `when:`
/// regular expression that backtracks catastrophically in ICU, near-miss reports of long paths against
/// many routes, `check` of 5,000 routes, and `serve --verbose` on control characters. Each waits for a
/// generous deadline, never for a time.
@Suite(.serialized)
struct StubServerBoundsTests {
    /// `serve` in a scratch project with this `server.yml`, and its base URL once it listens.
    private func serve(_ server: String, verbose: Bool = false) async throws -> (CLI.Running, String) {
        let project = try CLI.project([
            "Fixtures/server.yml": server,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        let running = try CLI.Running(["serve"] + (verbose ? ["--verbose"] : []), directory: project, environment: [:])
        #expect(await eventually(timeout: .seconds(60)) { StubServerCLITests.servingURL(running.stdout) != nil })
        return (running, try #require(StubServerCLITests.servingURL(running.stdout), "\(running.stderr)"))
    }

    /// Sends `count` GETs of `path` at once (without waiting for them), then a GET of `/plain` on a client
    /// of its own, and expects the plain one answered before `deadline` — whatever the others are still
    /// doing. (On one client the plain request would queue behind the others in the client's own pool of
    /// eight connections per host: a wait of the client, not of the server.)
    private func plainGETAnswers(
        behind count: Int,
        of path: String,
        at url: String,
        deadline: Duration = .seconds(30)
    ) async throws -> [Int] {
        // Connecting may take long too on a loaded machine (the default 5 s gave one of ten a status 0).
        let transport = AsyncHTTPTransport(connectTimeout: .seconds(120))
        let target = try #require(URL(string: url + path))
        let sent = Counter()
        let others = Task {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        sent.increment()
                        // How long each takes is not what is tested: a loaded machine may take long.
                        let request = HTTPRequest(method: .get, url: target, timeout: .seconds(300))
                        return (try? await transport.send(request).status) ?? 0
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        // The others are on their way first: the plain request comes behind them where it would be held up.
        #expect(await eventually(timeout: .seconds(60)) { sent.value == count })
        let plainTransport = AsyncHTTPTransport()
        let plainURL = try #require(URL(string: url + "/plain"))
        let answered = Answered()
        let plain = Task {
            let status = try await plainTransport.send(HTTPRequest(method: .get, url: plainURL)).status
            answered.set(status)
        }
        #expect(
            await eventually(timeout: deadline) { answered.status != nil },
            "GET /plain had no answer within \(deadline) while \(count) requests of \(path.prefix(40))… were served"
        )
        #expect(answered.status == 200)
        plain.cancel()
        let statuses = await others.value
        await transport.shutdown()
        await plainTransport.shutdown()
        return statuses
    }

    private final class Answered: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int?
        var status: Int? { lock.withLock { value } }
        func set(_ status: Int) { lock.withLock { value = status } }
    }

    /// `(a+)+$` on `aaa…ab`: ICU backtracks for seconds per request, on the event loop every connection
    /// is read on; 20 such requests held a plain GET for minutes. The stub server's expressions never
    /// backtrack.
    @Test func aCatastrophicWhenDoesNotHoldUpAPlainGET() async throws {
        let (serve, url) = try await serve(
            """
            routes:
              - { path: /slow, when: { query: { q: { matches: "(a+)+$" } } }, json: { slow: true } }
              - { path: /plain, json: { plain: true } }

            """
        )
        let value = String(repeating: "a", count: 28) + "b"
        let statuses = try await plainGETAnswers(behind: 20, of: "/slow?q=\(value)", at: url)
        #expect(statuses == Array(repeating: 404, count: 20), "no match: the value ends with 'b'")
        serve.process.interrupt()
        #expect(await serve.wait().status == 0)
    }

    /// A 60 KB path against 1,000 routes: the near-miss report compared every route's segments with all
    /// of it (about 55 s per request in a debug build; ten of them delayed a plain GET by minutes).
    @Test func longUnmatchedPathsDoNotHoldUpAPlainGET() async throws {
        let routes = (0..<1_000).map { "  - { path: /route\($0)/items, json: { n: \($0) } }\n" }.joined()
        let (serve, url) = try await serve("routes:\n" + routes + "  - { path: /plain, json: { plain: true } }\n")
        let path = "/route5/" + String(repeating: "x", count: 60_000)
        let statuses = try await plainGETAnswers(behind: 10, of: path, at: url)
        #expect(statuses == Array(repeating: 404, count: 10))
        serve.process.interrupt()
        #expect(await serve.wait().status == 0)
    }

    /// The near-miss report still names the nearest route and why, for a long path too.
    @Test func theNearMissOfALongPathStillNamesTheNearestRoute() async throws {
        let routes = (0..<200).map { "  - { path: /route\($0)/items, json: { n: \($0) } }\n" }.joined()
        let (serve, url) = try await serve("routes:\n" + routes)
        let transport = AsyncHTTPTransport()
        let long = String(repeating: "x", count: 60_000)
        let response = try await transport.send(
            HTTPRequest(method: .get, url: try #require(URL(string: url + "/route17/item" + long)))
        )
        await transport.shutdown()
        #expect(response.status == 404)
        #expect(response.bodyText.contains(#""route":"* /route17/items""#), "\(response.bodyText.prefix(400))")
        serve.process.interrupt()
        _ = await serve.wait()
    }

    /// `check` compared every route with every earlier one (5,000 routes: minutes); it now looks each up
    /// in an index of the earlier ones, and still finds the shadowed one.
    @Test func checkOfFiveThousandRoutesFinishes() async throws {
        var routes = ""
        for index in 0..<5_000 {
            switch index % 4 {
            case 0: routes += "  - { path: /items/\(index), json: { id: \(index) } }\n"
            case 1: routes += "  - { path: /users/:id/posts/\(index), method: GET, status: 204 }\n"
            case 2: routes += "  - { path: /search\(index), when: { query: { q: v\(index) } }, status: 200 }\n"
            default:
                routes +=
                    "  - { path: /h/\(index), method: POST, when: { headers: { X-Id: { matches: \"^\(index)$\" } } } }\n"
            }
        }
        routes += "  - { path: /users/7/posts/4001, method: GET, status: 200 }\n"
        let project = try CLI.project([
            "Fixtures/server.yml": "routes:\n" + routes,
            "Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n",
        ])
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await BoundedRun.run(["check"], directory: project)
        #expect(!result.timedOut, "check still running after \(BoundedRun.timeLimit) s")
        #expect(result.status == 0, "\(result.stderr.prefix(2000))")
        #expect(
            result.stderr
                == "Fixtures/server.yml:5002:5: warning: Route GET /users/7/posts/4001 is never reached: GET /users/:id/posts/4001 at Fixtures/server.yml:4003 answers every request it would.\n"
        )
    }

    /// `serve --verbose` prints the request's decoded values (in the near misses' reasons): ESC, BEL, CR
    /// and LF are shown in caret notation, never sent to the terminal.
    @Test func serveVerboseShowsControlCharactersNeverObeysThem() async throws {
        let (serve, url) = try await serve(
            "routes:\n  - { path: /search, when: { query: { q: lunch } }, json: {} }\n",
            verbose: true
        )
        let transport = AsyncHTTPTransport()
        let target = try #require(URL(string: url + "/search?q=%1B%5B2J%07%0D%0A%E2%9C%93%20forged"))
        #expect(try await transport.send(HTTPRequest(method: .get, url: target)).status == 404)
        await transport.shutdown()
        #expect(await eventually(timeout: .seconds(30)) { serve.stdout.contains("GET /search?q=") })
        serve.process.interrupt()
        let output = await serve.wait().stdout
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("GET /search?q=") })
        #expect(line.contains("query 'q' is '^[[2J^G^M^J✓ forged', expected 'lunch'"), "\(line)")
        #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" })
        #expect(!output.split(separator: "\n").contains { $0.hasPrefix("✓ forged") })
    }
}
