import Foundation
import SharedValues
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The fixture folder as the stub server serves it: files reached by ``FixtureFolder``'s rule, their
/// contents cached by name. A repeated request costs one `stat` of the resolved file (its device, inode,
/// size and modification time must be unchanged) instead of resolving every path component and reading
/// the file again, so a fixture edited while the server runs is served fresh.
final class ServedFixtures: Sendable {
    let folder: FixtureFolder
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

    init(_ folder: FixtureFolder) {
        self.folder = folder
    }

    /// The contents and real path of the file a route's `fixture:` names, or `nil`.
    func contents(named name: String) -> (data: Data, path: String)? {
        cached("name:" + name) { folder.file(named: name) }
    }

    /// The contents and real path of the file at a raw request path, or `nil`.
    func contents(atRequestPath path: String) -> (data: Data, path: String)? {
        cached("path:" + path) { folder.file(atRequestPath: path) }
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
}
