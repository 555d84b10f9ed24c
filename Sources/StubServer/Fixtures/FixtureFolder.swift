import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fixture folder, from which files are served only when their real path stays inside it.
///
/// Served contents are cached by name: a repeated request costs one `stat` of the resolved file (its
/// device, inode, size and modification time must be unchanged) instead of resolving every path
/// component and reading the file again, so a fixture edited while the server runs is served fresh.
final class FixtureFolder: Sendable {
    /// The folder as given.
    let url: URL
    private let cache = Mutex<[String: CachedFile]>([:])

    /// A file's real path, contents, and the identity they were read with.
    struct CachedFile: Sendable {
        var path: String
        var data: Data
        var identity: FileIdentity
    }

    struct FileIdentity: Equatable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

        /// The identity of the regular file at `path`, or `nil` when there is none.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    init(_ url: URL) {
        self.url = url
    }

    /// The contents and real path of the file a route's `fixture:` names, or `nil`.
    func contents(named name: String) -> (data: Data, path: String)? {
        cached("name:" + name) { file(named: name) }
    }

    /// The contents and real path of the file at a raw request path, or `nil`.
    func contents(atRequestPath path: String) -> (data: Data, path: String)? {
        cached("path:" + path) { file(atRequestPath: path) }
    }

    private func cached(_ key: String, resolve: () -> URL?) -> (data: Data, path: String)? {
        if let hit = cache.withLock({ $0[key] }), FileIdentity(path: hit.path) == hit.identity {
            return (hit.data, hit.path)
        }
        guard let url = resolve(), let identity = FileIdentity(path: url.path),
            let data = try? Data(contentsOf: url)
        else {
            cache.withLock { $0[key] = nil }
            return nil
        }
        // Read after the identity: a file replaced in between is read again on the next request.
        cache.withLock { $0[key] = CachedFile(path: url.path, data: data, identity: identity) }
        return (data, url.path)
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
