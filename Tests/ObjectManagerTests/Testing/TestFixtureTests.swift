import Foundation
import Testing

@testable import ObjectManager

struct TestFixtureTests {
    let fixtures = TestFixture(
        directory: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    )

    @Test func readsDataStringAndJSON() throws {
        #expect(try fixtures.string(named: "503.html") == "<html>Service unavailable.</html>")
        #expect(try fixtures.data(named: "500.txt").isEmpty)
        let review = try fixtures.json(named: "review.json")
        #expect(review == ["id": 1, "title": "Whatever"])
    }

    @Test func mimeTypeFollowsTheExtension() {
        #expect(fixtures.mimeType(named: "article.json") == "application/json")
        #expect(fixtures.mimeType(named: "503.html") == "text/html")
        #expect(fixtures.mimeType(named: "500.txt") == "text/plain")
        #expect(fixtures.mimeType(named: "blob.bin") == "application/octet-stream")
    }

    @Test func missingFixtureSuggestsTheNearestName() {
        #expect(throws: TestFixtureError.self) { try fixtures.data(named: "reveiw.json") }
        do {
            _ = try fixtures.data(named: "reveiw.json")
        } catch {
            #expect(error.description.hasPrefix("Fixture 'reveiw.json' not found in '"))
            #expect(error.description.hasSuffix("Did you mean 'review.json' or 'reviews.json'?"))
        }
    }

    @Test func nothingOutsideTheFolderIsRead() {
        #expect(throws: TestFixtureError.outsideFolder(name: "../Package.swift", directory: fixtures.directory.path)) {
            try fixtures.data(named: "../Package.swift")
        }
        #expect(!fixtures.exists(named: "../Package.swift"))
    }

    @Test func notJSONIsAClearError() {
        #expect(throws: TestFixtureError.self) { try fixtures.json(named: "503.html") }
    }
}
