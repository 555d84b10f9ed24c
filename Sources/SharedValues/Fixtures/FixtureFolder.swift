import Diagnostics
package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A fixture folder and the one rule for reaching a file in it, shared by the scenario loader
/// (`StepBuildContext`), the stub server and `TestFixture`: a name is a relative path of plain segments
/// (none empty, `.` or `..`, no NUL byte), and the file's real path — every link resolved — must be a
/// regular file inside the folder's real path. Links that stay inside are followed; links out are not.
///
/// ```swift
/// let fixtures = FixtureFolder(URL(fileURLWithPath: "Fixtures"))
/// fixtures.lookUp("reviews/1.json")   // .file(URL of the real path)
/// fixtures.lookUp("../secret")        // .outside
/// fixtures.message(for: "reviw.json") // Fixture 'reviw.json' not found in 'Fixtures'. Did you mean 'review.json'?
/// ```
package struct FixtureFolder: Sendable {
    /// What a name reaches.
    package enum Lookup: Sendable, Hashable {
        /// A regular file inside the folder, by its real path.
        case file(URL)
        /// A plain name with no regular file at it.
        case notFound
        /// A name that is not a plain relative path, or whose real path leaves the folder.
        case outside
    }

    /// At most this many files are listed for suggestions: a huge folder costs a bounded walk.
    package static let listingLimit = 10_000

    /// The folder as given.
    package let url: URL

    package init(_ url: URL) {
        self.url = url
    }

    /// The folder's name as messages show it.
    package var displayName: String { url.lastPathComponent }

    /// What the fixture name `name` (`review.json`, `reviews/1.json`) reaches.
    package func lookUp(_ name: String) -> Lookup {
        lookUp(name, root: Self.realPath(url.path))
    }

    /// ``lookUp(_:)`` with the folder's real path already resolved (`nil`: the folder is not there).
    private func lookUp(_ name: String, root: String?) -> Lookup {
        var segments: [String] = []
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            let segment = String(part)
            guard !segment.isEmpty, segment != ".", segment != "..", !segment.contains("\0") else { return .outside }
            segments.append(segment)
        }
        return lookUp(segments: segments, root: root)
    }

    /// The regular file the fixture name `name` reaches, or `nil`.
    package func file(named name: String) -> URL? {
        if case .file(let url) = lookUp(name) { url } else { nil }
    }

    /// The regular file at a raw request path (`/reviews/1.json`, percent-encoded), or `nil` when there is
    /// none or the path could leave the folder.
    package func file(atRequestPath path: String) -> URL? {
        guard let segments = RequestPath.safeSegments(of: path, leadingSlash: true),
            case .file(let url) = lookUp(segments: segments, root: Self.realPath(self.url.path))
        else { return nil }
        return url
    }

    /// Joins the segments under the folder, resolves links, and checks the real path is a regular file
    /// inside the folder's real path.
    private func lookUp(segments: [String], root: String?) -> Lookup {
        guard !segments.isEmpty, let root else { return .notFound }
        let candidate = ([root] + segments).joined(separator: "/")
        guard let real = Self.realPath(candidate) else { return .notFound }
        guard real.hasPrefix(root == "/" ? "/" : root + "/") else { return .outside }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .notFound }
        return .file(URL(fileURLWithPath: real))
    }

    /// Why `name` reaches no file, in the one wording the loader, the stub server and `TestFixture` use:
    /// `Fixture 'reviw.json' not found in 'Fixtures'. Did you mean 'review.json'?`, or, for a name that
    /// leaves the folder, `Fixture '../secret' is outside 'Fixtures'; fixtures are read only from inside it.`
    package func message(for name: String) -> String {
        lookUp(name) == .outside
            ? Self.outsideMessage(name: name, folder: displayName)
            : Self.notFoundMessage(
                name: name,
                folder: displayName,
                suggestions: Suggestions.nearest(to: name, in: fileNames)
            )
    }

    /// `Fixture 'reviw.json' not found in 'Fixtures'. Did you mean 'review.json'?`
    package static func notFoundMessage(name: String, folder: String, suggestions: [String]) -> String {
        "Fixture '\(name)' not found in '\(folder)'." + Suggestions.didYouMean(suggestions: suggestions)
    }

    /// `Fixture '../secret' is outside 'Fixtures'; fixtures are read only from inside it.`
    package static func outsideMessage(name: String, folder: String) -> String {
        "Fixture '\(name)' is outside '\(folder)'; fixtures are read only from inside it."
    }

    /// The names of the files the rule reaches (recursively, relative, sorted; at most ``listingLimit``
    /// entries are looked at).
    package var fileNames: [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { return [] }
        let root = Self.realPath(url.path)
        var names: [String] = []
        var seen = 0
        while seen < Self.listingLimit, let name = enumerator.nextObject() as? String {
            seen += 1
            if case .file = lookUp(name, root: root) { names.append(name) }
        }
        return names.sorted()
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
