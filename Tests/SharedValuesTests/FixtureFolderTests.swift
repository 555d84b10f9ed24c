import Foundation
import SharedValues
import Testing

/// The one rule for reaching a fixture, which the loader, the stub server and `TestFixture` all use.
struct FixtureFolderTests {
    /// `Fixtures/` with `review.json`, `reviews/1.json`, a link inside, links out, and `secret` beside it.
    final class Layout {
        let root: URL
        let folder: FixtureFolder

        init() throws {
            root = FileManager.default.temporaryDirectory.appending(path: "fixture-folder-\(UUID().uuidString)")
            let fixtures = root.appending(path: "Fixtures")
            let manager = FileManager.default
            try manager.createDirectory(at: fixtures.appending(path: "reviews"), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: fixtures.appending(path: "review.json"))
            try Data("[]".utf8).write(to: fixtures.appending(path: "reviews/1.json"))
            try Data("no".utf8).write(to: root.appending(path: "secret"))
            try manager.createSymbolicLink(
                atPath: fixtures.appending(path: "alias.json").path,
                withDestinationPath: "review.json"
            )
            try manager.createSymbolicLink(
                atPath: fixtures.appending(path: "out").path,
                withDestinationPath: "../secret"
            )
            try manager.createSymbolicLink(atPath: fixtures.appending(path: "up").path, withDestinationPath: "..")
            folder = FixtureFolder(fixtures)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func real(_ name: String) -> URL {
            URL(fileURLWithPath: folder.url.appending(path: name).resolvingSymlinksInPath().path)
        }
    }

    @Test func plainNamesReachRegularFilesByTheirRealPath() throws {
        let layout = try Layout()
        #expect(layout.folder.lookUp("review.json") == .file(layout.real("review.json")))
        #expect(layout.folder.lookUp("reviews/1.json") == .file(layout.real("reviews/1.json")))
        #expect(layout.folder.lookUp("alias.json") == .file(layout.real("review.json")))
        #expect(layout.folder.lookUp("nope.json") == .notFound)
        #expect(layout.folder.lookUp("reviews") == .notFound)
    }

    @Test func namesThatLeaveTheFolderAreOutside() throws {
        let layout = try Layout()
        for name in [
            "../secret", "/etc/passwd", "reviews/../../secret", "./review.json", "a//b", "", "out", "up/secret",
        ] {
            #expect(layout.folder.lookUp(name) == .outside, "\(name)")
        }
    }

    @Test func requestPathsAreDecodedAndHeldToTheSameRule() throws {
        let layout = try Layout()
        #expect(layout.folder.file(atRequestPath: "/reviews%2F1.json") == nil)
        #expect(layout.folder.file(atRequestPath: "/reviews/1.json") == layout.real("reviews/1.json"))
        #expect(layout.folder.file(atRequestPath: "/%2e%2e/secret") == nil)
        #expect(layout.folder.file(atRequestPath: "/out") == nil)
    }

    @Test func oneMessageNamesTheFolderAndSuggestsANearName() throws {
        let layout = try Layout()
        #expect(
            layout.folder.message(for: "reveiw.json")
                == "Fixture 'reveiw.json' not found in 'Fixtures'. Did you mean 'review.json'?"
        )
        #expect(layout.folder.message(for: "zzzzzzzzzzzz.bin") == "Fixture 'zzzzzzzzzzzz.bin' not found in 'Fixtures'.")
        #expect(
            layout.folder.message(for: "../secret")
                == "Fixture '../secret' is outside 'Fixtures'; fixtures are read only from inside it."
        )
    }

    @Test func theListingHoldsOnlyWhatTheRuleReaches() throws {
        let layout = try Layout()
        #expect(layout.folder.fileNames == ["alias.json", "review.json", "reviews/1.json"])
    }
}
