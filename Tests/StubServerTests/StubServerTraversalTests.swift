import Diagnostics
import Foundation
import TestSupport
import Testing

@testable import StubServer

/// No request and no route reaches a file outside the fixture folder: `..` in every encoding, backslashes,
/// NUL, absolute paths, and links inside the folder that lead out. A link whose real path stays inside
/// the folder is served like the file it names.
struct StubServerTraversalTests {
    typealias Running = StubServerTests.Running

    /// A fixture folder with a secret beside it and links inside it, some leading out.
    final class Layout {
        let running: Running
        let secret = "TOP-SECRET-\(UUID().uuidString)"

        init() async throws {
            running = try await Running(files: ["inside.json": "{}", "static/list.json": "[1]"])
            let temp = running.temp
            let fixtures = running.fixtures
            let secretFile = try temp.write(secret, to: "secret")
            try temp.write(secret, to: "Fixtures-evil/x")
            let links: [(String, String)] = [
                ("link-secret", secretFile.path),
                ("link-passwd", "/etc/passwd"),
                ("link-root", "/"),
                ("linked-folder", temp.url.path),
                ("link-relative-out", "../secret"),
                ("link-chain", fixtures.appending(path: "link-secret").path),
                ("static/link-up", ".."),
                ("link-inside.json", fixtures.appending(path: "inside.json").path),
                ("static/link-sibling.json", "../inside.json"),
            ]
            for (name, destination) in links {
                try FileManager.default.createSymbolicLink(
                    atPath: fixtures.appending(path: name).path,
                    withDestinationPath: destination
                )
            }
        }
    }

    /// Request targets sent byte for byte, each with the status it must get.
    static func attacks(secretFile: String) -> [(target: String, status: Int)] {
        [
            ("/../secret", 404),
            ("/../../../../../../etc/passwd", 404),
            ("/%2e%2e/secret", 404),
            ("/%2E%2E/secret", 404),
            ("/.%2e/secret", 404),
            ("/%2e./secret", 404),
            ("/..%2fsecret", 404),
            ("/%2e%2e%2fsecret", 404),
            ("/%2E%2E%2Fsecret", 404),
            ("/%252e%252e/secret", 404),
            ("/%252e%252e%252fsecret", 404),
            ("/..%252fsecret", 404),
            ("/..\\secret", 404),
            ("/..%5csecret", 404),
            ("/%2e%2e%5csecret", 404),
            ("/static\\..\\..\\secret", 404),
            ("/inside.json%00", 404),
            ("/%00/../secret", 404),
            ("/secret%00.json", 404),
            ("//\(secretFile)", 404),
            ("/%2F\(secretFile.dropFirst())", 404),
            ("\(secretFile)", 404),
            ("/etc/passwd", 404),
            ("http://127.0.0.1/../secret", 404),
            ("/inside.json/../../secret", 404),
            ("/static/../../secret", 404),
            ("/static/..%2f..%2fsecret", 404),
            ("/../Fixtures-evil/x", 404),
            ("/./link-secret", 404),
            ("/link-secret", 404),
            ("/link-passwd", 404),
            ("/link-root/etc/passwd", 404),
            ("/linked-folder/secret", 404),
            ("/link-relative-out", 404),
            ("/link-chain", 404),
            ("/static/link-up/inside.json", 200),
            ("/static/link-up/../secret", 404),
            ("/%2Flink-secret", 404),
            ("/..;/secret", 404),
        ]
    }

    @Test func noRequestTargetReachesAFileOutsideTheFolder() async throws {
        let layout = try await Layout()
        let secretFile = layout.running.temp.url.appending(path: "secret").path
        let attacks = Self.attacks(secretFile: secretFile)
        #expect(attacks.count >= 20)
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8))?.prefix(20) ?? "root:"
        for (target, status) in attacks {
            let reply = try await RawHTTPClient.get(target, port: layout.running.port)
            #expect(reply.status == status, "\(target) answered \(reply.status ?? 0)")
            #expect(!reply.text.contains(layout.secret), "\(target) leaked the secret")
            #expect(!reply.text.contains(passwd), "\(target) leaked /etc/passwd")
        }
        await layout.running.finish()
    }

    @Test func aNULByteInTheRawTargetIsRefused() async throws {
        let layout = try await Layout()
        let reply = try await RawHTTPClient.get("/inside.json\u{0}/../../secret", port: layout.running.port)
        #expect(reply.status == 400)
        #expect(!reply.text.contains(layout.secret))
        await layout.running.finish()
    }

    @Test func linksThatStayInsideAreServed() async throws {
        let layout = try await Layout()
        for target in ["/link-inside.json", "/static/link-sibling.json", "/inside.json"] {
            let reply = try await RawHTTPClient.get(target, port: layout.running.port)
            #expect(reply.status == 200, "\(target) answered \(reply.status ?? 0)")
            #expect(reply.text.hasSuffix("{}"))
        }
        await layout.running.finish()
    }

    @Test func aRouteFixtureOutsideTheFolderIsALoadError() async throws {
        let layout = try await Layout()
        let yaml = """
            routes:
              - { path: /a, fixture: ../../etc/passwd }
              - { path: /b, fixture: /etc/passwd }
              - { path: /c, fixture: link-passwd }
              - { path: /d, fixture: linked-folder/secret }
              - { path: /e, fixture: "%2e%2e/secret" }
              - { path: /f, fixture: link-inside.json }
            """
        do {
            _ = try ServerRouteTable.parse(yaml: yaml, file: "server.yml", fixtures: layout.running.fixtures)
            Issue.record("A route table with fixtures outside the folder loaded")
        } catch {
            let messages = error.diagnostics.map(\.message)
            #expect(
                messages == [
                    "Fixture '../../etc/passwd' is outside 'Fixtures'; fixtures are read only from inside it.",
                    "Fixture '/etc/passwd' is outside 'Fixtures'; fixtures are read only from inside it.",
                    "Fixture 'link-passwd' is outside 'Fixtures'; fixtures are read only from inside it.",
                    "Fixture 'linked-folder/secret' is outside 'Fixtures'; fixtures are read only from inside it.",
                    "Fixture '%2e%2e/secret' not found in 'Fixtures'.",
                ]
            )
        }
        await layout.running.finish()
    }

    @Test func aRouteWhoseFixtureBecomesALinkOutIsA404() async throws {
        let temp = try TemporaryFolder()
        let fixtures = try temp.folder("Fixtures")
        let secret = "TOP-SECRET-\(UUID().uuidString)"
        let secretFile = try temp.write(secret, to: "secret")
        try temp.write("{}", to: "Fixtures/review.json")
        let table = try ServerRouteTable.parse(
            yaml: "routes:\n  - { path: /review, fixture: review.json }\n",
            file: "server.yml",
            fixtures: fixtures
        )
        let server = StubServer(fixtures: fixtures, routes: table)
        let port = try await server.start().port ?? 0
        #expect(try await RawHTTPClient.get("/review", port: port).status == 200)
        // Replaced by a link out while serving (the cached contents must not be served either).
        try FileManager.default.removeItem(at: fixtures.appending(path: "review.json"))
        try FileManager.default.createSymbolicLink(
            at: fixtures.appending(path: "review.json"),
            withDestinationURL: secretFile
        )
        let reply = try await RawHTTPClient.get("/review", port: port)
        #expect(reply.status == 404)
        #expect(!reply.text.contains(secret))
        await server.stop()
    }
}
