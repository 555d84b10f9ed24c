import Foundation
import SharedValues
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The fixture folder as the stub server serves it: files reached by ``FixtureFolder``'s rule, their
/// contents cached by real path. A repeated request costs one `stat` of the resolved file (its device,
/// inode, size and modification time must be unchanged) instead of resolving every path component and
/// reading the file again, so a fixture edited while the server runs is served fresh.
///
/// Both caches are bounded: a request's spelling (any number of percent-encodings name one file) maps
/// to its real path in at most ``spellingLimit`` entries of at most ``spellingBytesLimit`` bytes, and
/// each file's contents are held once, at most ``contentsBytesLimit`` bytes in all (the oldest go
/// first). Twenty thousand spellings of a 1 MB fixture hold 1 MB, not 20 GB.
final class ServedFixtures: Sendable {
    let folder: FixtureFolder
    private let cache = Mutex(Cache())

    /// The most spellings remembered, and the most bytes their keys take.
    static let spellingLimit = 10_000
    static let spellingBytesLimit = 4 * 1024 * 1024
    /// The most bytes of file contents held.
    static let contentsBytesLimit = 64 * 1024 * 1024

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

    /// Spellings to real paths, and contents by real path, each within its limits.
    private struct Cache {
        var realPaths: [String: String] = [:]
        var spellingBytes = 0
        var files: [String: CachedFile] = [:]
        /// Real paths in the order their contents were cached, for eviction.
        var order: [String] = []
        var contentBytes = 0

        mutating func remember(_ key: String, realPath: String) {
            if realPaths[key] == nil {
                if realPaths.count >= ServedFixtures.spellingLimit
                    || spellingBytes + key.utf8.count > ServedFixtures.spellingBytesLimit
                {
                    realPaths = [:]
                    spellingBytes = 0
                }
                spellingBytes += key.utf8.count
            }
            realPaths[key] = realPath
        }

        mutating func store(_ file: CachedFile) {
            if let old = files.removeValue(forKey: file.path) {
                contentBytes -= old.data.count
                order.removeAll { $0 == file.path }
            }
            guard file.data.count <= ServedFixtures.contentsBytesLimit else { return }
            while contentBytes + file.data.count > ServedFixtures.contentsBytesLimit, !order.isEmpty {
                let oldest = order.removeFirst()
                contentBytes -= files.removeValue(forKey: oldest)?.data.count ?? 0
            }
            files[file.path] = file
            order.append(file.path)
            contentBytes += file.data.count
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

    /// Cached held contents (checked by one `stat`), else resolved and read.
    private func cached(_ key: String, resolve: () -> URL?) -> (data: Data, path: String)? {
        let hit = cache.withLock { cache in cache.realPaths[key].flatMap { cache.files[$0] } }
        if let hit, FileIdentity(path: hit.path) == hit.identity {
            return (hit.data, hit.path)
        }
        guard let url = resolve(), let identity = FileIdentity(path: url.path) else { return nil }
        let path = url.path
        if let held = cache.withLock({ $0.files[path] }), held.identity == identity {
            cache.withLock { $0.remember(key, realPath: path) }
            return (held.data, path)
        }
        guard let data = try? Data(contentsOf: url) else { return nil }
        // Read after the identity: a file replaced in between is read again on the next request.
        cache.withLock { cache in
            cache.remember(key, realPath: path)
            cache.store(CachedFile(path: path, data: data, identity: identity))
        }
        return (data, path)
    }

    /// What the caches hold: spellings remembered and bytes of contents (for tests).
    var cachedCounts: (spellings: Int, contentBytes: Int) {
        cache.withLock { ($0.realPaths.count, $0.contentBytes) }
    }
}
