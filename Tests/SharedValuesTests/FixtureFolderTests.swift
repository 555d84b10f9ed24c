import Foundation
import SharedValues
import TestSupport
import Testing

/// The one rule for reaching a fixture, which the loader, the stub server and `TestFixture` all use.
struct FixtureFolderTests {
    /// The layout's folder under the rule.
    static func folder(_ layout: FixtureLayout) -> FixtureFolder { FixtureFolder(layout.fixtures) }

    @Test func plainNamesReachRegularFilesByTheirRealPath() throws {
        let layout = try FixtureLayout()
        let folder = Self.folder(layout)
        #expect(folder.lookUp("review.json") == .file(layout.real("review.json")))
        #expect(folder.lookUp("reviews/1.json") == .file(layout.real("reviews/1.json")))
        #expect(folder.lookUp("alias.json") == .file(layout.real("review.json")))
        #expect(folder.lookUp("nope.json") == .notFound)
        #expect(folder.lookUp("reviews") == .notFound)
    }

    @Test func namesThatLeaveTheFolderAreOutside() throws {
        let layout = try FixtureLayout()
        let folder = Self.folder(layout)
        for name in [
            "../secret.json", "/etc/passwd", "reviews/../../secret.json", "./review.json", "a//b", "", "out.json",
            "up/secret.json",
        ] {
            #expect(folder.lookUp(name) == .outside, "\(name)")
        }
    }

    @Test func requestPathsAreDecodedAndHeldToTheSameRule() throws {
        let layout = try FixtureLayout()
        let folder = Self.folder(layout)
        #expect(folder.file(atRequestPath: "/reviews%2F1.json") == nil)
        #expect(folder.file(atRequestPath: "/reviews/1.json") == layout.real("reviews/1.json"))
        #expect(folder.file(atRequestPath: "/%2e%2e/secret.json") == nil)
        #expect(folder.file(atRequestPath: "/out.json") == nil)
    }

    @Test func oneMessageNamesTheFolderAndSuggestsANearName() throws {
        let layout = try FixtureLayout()
        let folder = Self.folder(layout)
        #expect(
            folder.message(for: "reveiw.json")
                == "Fixture 'reveiw.json' not found in 'Fixtures'. Did you mean 'review.json'?"
        )
        #expect(folder.message(for: "zzzzzzzzzzzz.bin") == "Fixture 'zzzzzzzzzzzz.bin' not found in 'Fixtures'.")
        #expect(
            folder.message(for: "../secret.json")
                == "Fixture '../secret.json' is outside 'Fixtures'; fixtures are read only from inside it."
        )
    }

    @Test func theListingHoldsOnlyWhatTheRuleReaches() throws {
        let layout = try FixtureLayout()
        let folder = Self.folder(layout)
        #expect(folder.fileNames == ["alias.json", "review.json", "reviews/1.json"])
    }
}
