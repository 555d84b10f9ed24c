public import Foundation

/// A scratch fixture folder for the tests of the fixture rule: `Fixtures/` holding `review.json`,
/// `reviews/1.json`, `alias.json` (a link to `review.json`), `out.json` (a link to `../secret.json`) and
/// `up` (a link to `..`), with `secret.json` beside the folder. Removed when released.
public final class FixtureLayout {
    public let root: URL
    /// The `Fixtures` folder.
    public let fixtures: URL

    public init() throws {
        root = FileManager.default.temporaryDirectory.appending(path: "fixture-layout-\(UUID().uuidString)")
        fixtures = root.appending(path: "Fixtures")
        let manager = FileManager.default
        try manager.createDirectory(at: fixtures.appending(path: "reviews"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: fixtures.appending(path: "review.json"))
        try Data("[]".utf8).write(to: fixtures.appending(path: "reviews/1.json"))
        try Data("no".utf8).write(to: root.appending(path: "secret.json"))
        for (link, target) in [("alias.json", "review.json"), ("out.json", "../secret.json"), ("up", "..")] {
            try manager.createSymbolicLink(atPath: fixtures.appending(path: link).path, withDestinationPath: target)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The real path of a name under `Fixtures`, links resolved.
    public func real(_ name: String) -> URL {
        URL(fileURLWithPath: fixtures.appending(path: name).resolvingSymlinksInPath().path)
    }
}
