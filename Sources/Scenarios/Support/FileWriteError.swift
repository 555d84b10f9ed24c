package import Foundation
import SharedValues

/// A file that could not be written, said in words: `Cannot write 'out/report.xml': it is a folder.`
/// Reports and the kept store are written through ``replace(_:writing:)`` or ``write(_:to:)``, so a
/// regular file is never half-written and what is not a regular file is written through, never replaced.
package struct FileWriteError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "Cannot write '\(path)': \(reason)." }

    /// Writes `data` to `url` as the user means it: a regular file (or a new path) is written beside and
    /// renamed into place (``replace(_:writing:)``); a symbolic link writes to its target the same way;
    /// a character device (`/dev/null`, `/dev/full`, a terminal), a FIFO or a socket is written through,
    /// never replaced; `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` write to that descriptor. A failed
    /// or short write (`/dev/full`: ENOSPC) is an error.
    package static func write(_ data: Data, to url: URL) throws(FileWriteError) {
        let path = url.path
        if let descriptor = standardDescriptor(path) {
            fflush(nil)  // what was printed comes first
            try writeAll(data, to: descriptor, path: path)
            return
        }
        let target = resolvingLinks(path)
        if let descriptor = try openWrittenThrough(target, shownAs: path) {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: path)
            return
        }
        try replace(URL(fileURLWithPath: target), shownAs: path) { try data.write(to: $0) }
    }

    /// A descriptor to write a stream to, as the user means `url` (the rules of ``write(_:to:)``, less the
    /// rename: a stream is read while it is written): a regular file or a new path is created or emptied;
    /// a link writes to its target; a device or FIFO is written through (a FIFO nobody reads is an
    /// error, not a hang); `/dev/stdout` and its kind are a copy of that descriptor. The caller closes it.
    package static func openStream(_ url: URL) throws(FileWriteError) -> Int32 {
        let path = url.path
        if let descriptor = standardDescriptor(path) {
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
            guard copy >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
            return copy
        }
        let target = resolvingLinks(path)
        if let descriptor = try openWrittenThrough(target, shownAs: path) { return descriptor }
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
        return descriptor
    }

    /// A descriptor for `target` when it is something written through rather than replaced (a device, a
    /// FIFO, a socket); `nil` for a regular file, a folder or a path that is not there. O_NONBLOCK: a
    /// FIFO nobody reads is an error (ENXIO), not a hang; it is cleared before anything is written.
    private static func openWrittenThrough(_ target: String, shownAs path: String) throws(FileWriteError) -> Int32? {
        var status = stat()
        guard stat(target, &status) == 0, !isRegular(status), !isFolder(status) else { return nil }
        let descriptor = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_APPEND)
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? "no process is reading that FIFO" : String(cString: strerror(errno))
            throw FileWriteError(path: path, reason: reason)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Writes a new file beside `url` with `write`, then renames it over `url`: rename(2) replaces the
    /// destination atomically (FileManager.replaceItemAt is unreliable on Linux), so readers see the old
    /// file or the new one, never part of one. For regular files only (``write(_:to:)`` decides).
    package static func replace(_ url: URL, writing write: (URL) throws -> Void) throws(FileWriteError) {
        try replace(url, shownAs: url.path, writing: write)
    }

    private static func replace(
        _ url: URL,
        shownAs shown: String,
        writing write: (URL) throws -> Void
    ) throws(FileWriteError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try write(temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw FileWriteError(path: shown, reason: reason(error))
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw FileWriteError(path: shown, reason: reason)
        }
    }

    /// Why a write failed, in words: the system's reason (`No space left on device`) when there is one.
    private static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
            if cocoa.code == .fileWriteOutOfSpace { return String(cString: strerror(ENOSPC)) }
            return "its folder cannot be written to"
        }
        return "\(error)"
    }

    /// Every byte of `data` to `descriptor` (``writeEveryByte(of:to:)``: short writes continued, EINTR
    /// retried, a descriptor that would block waited on); any other failure throws.
    package static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(FileWriteError) {
        let failure = data.withUnsafeBytes { writeEveryByte(of: $0, to: descriptor) }
        if failure != 0 { throw FileWriteError(path: path, reason: String(cString: strerror(failure))) }
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names: written to
    /// directly (reopening it would start a redirected file over at its first byte).
    private static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), number >= 0 { return number }
            }
            return nil
        }
    }

    /// `path` with its symbolic links followed (relative targets against the link's folder), up to 40
    /// of them; a dangling link gives the path it points to, so the report is created there.
    static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current =
                target.hasPrefix("/")
                ? target
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        return current
    }

    private static func isRegular(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFREG }
    private static func isFolder(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFDIR }

    /// Why `path` could not take a file, checked before a run so that the run is not wasted: its folder
    /// is missing or not writable, or the path is a folder. `nil` when it looks writable; a device, FIFO
    /// or descriptor is written through, so only its being writable matters.
    package static func problem(writing path: String) -> FileWriteError? {
        if standardDescriptor(path) != nil { return nil }
        let target = resolvingLinks(path)
        var status = stat()
        if stat(target, &status) == 0 {
            if isFolder(status) { return FileWriteError(path: path, reason: "it is a folder") }
            if !isRegular(status) {
                return access(target, W_OK) == 0
                    ? nil : FileWriteError(path: path, reason: String(cString: strerror(errno)))
            }
        }
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return FileWriteError(path: path, reason: "the folder '\(folder)' does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            return FileWriteError(path: path, reason: "the folder '\(folder)' cannot be written to")
        }
        return nil
    }
}
