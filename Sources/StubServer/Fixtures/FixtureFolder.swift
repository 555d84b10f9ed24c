import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fixture folder, from which files are served only when their real path stays inside it.
struct FixtureFolder: Sendable {
    /// The folder as given.
    let url: URL

    init(_ url: URL) {
        self.url = url
    }

    /// The folder's name as shown in messages.
    var displayName: String { url.lastPathComponent }

    /// The regular file at a raw request path (`/reviews/1.json`, percent-encoded), or `nil` when there is
    /// none or the path could leave the folder.
    func file(atRequestPath path: String) -> URL? {
        RequestPath.safeSegments(of: path, leadingSlash: true).flatMap(file(segments:))
    }

    /// The regular file a route's `fixture:` names (`review.json`, `reviews/1.json`), or `nil`.
    func file(named name: String) -> URL? {
        var segments: [String] = []
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            let segment = String(part)
            guard !segment.isEmpty, segment != ".", segment != "..", !segment.contains("\0") else { return nil }
            segments.append(segment)
        }
        return segments.isEmpty ? nil : file(segments: segments)
    }

    /// Joins the segments under the folder, resolves links, and checks the real path is a regular file inside
    /// the folder's real path.
    private func file(segments: [String]) -> URL? {
        guard let root = Self.realPath(url.path) else { return nil }
        let candidate = ([root] + segments).joined(separator: "/")
        guard let real = Self.realPath(candidate), real.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return URL(fileURLWithPath: real)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
