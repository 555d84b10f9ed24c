import Foundation

/// The open-file arithmetic of a run, in one place: what a run needs besides its workers, what each
/// worker costs, how many workers a limit allows, raising the soft limit, and the words that name the
/// limit when something runs out.
///
/// ```swift
/// let limit = OpenFiles.raiseLimit()           // 65,536 where the hard limit allows
/// OpenFiles.workersFitting(limit)              // 16,377
/// OpenFiles.limitNote                          // " (ulimit -n is 65536)"
/// ```
package enum OpenFiles {
    /// Open files a run needs besides its workers, and each worker's (its channel, read and written
    /// through two descriptors, its standard error and Foundation's watch of the process), measured with
    /// `prlimit --nofile`: one worker runs at 30, two at 34, four at 42 (26 + 4 per worker); two spare.
    package static let base = 28
    /// The fewest open files a run in this process needs (it ran at 16, NIO trapped at 12).
    package static let least = 16
    package static let perWorker = 4

    /// How many workers `limit` descriptors allow; 0 when not even one (the run goes in-process).
    package static func workersFitting(_ limit: Int) -> Int {
        max(0, (limit - base) / perWorker)
    }

    /// The soft limit now, or `nil` when it cannot be read.
    static var softLimit: Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// ` (ulimit -n is N)`, said after a failure that running out of descriptors may explain; empty when
    /// the limit cannot be read.
    static var limitNote: String {
        softLimit.map { " (ulimit -n is \($0))" } ?? ""
    }

    /// Raises the soft open-file limit to the hard one (at most 65,536), as a shell's `ulimit -Sn 20`
    /// need not hold a run back; returns the soft limit then. Below ``base``, Foundation itself crashes
    /// (it cannot make a run loop's timer) once a worker is started.
    package static func raiseLimit() -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return Int.max }
        let wanted = min(limit.rlim_max, 65_536)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Closes the descriptors this process inherited above its open-file limit (a shell's 255 under
    /// `ulimit -n 64`): Foundation's Process asks posix_spawn to close every other descriptor in the
    /// child, and one at or over the limit fails that with EBADF, so no worker could start. Nothing of
    /// this process is there: it cannot open a descriptor that high itself.
    static func closeDescriptorsOverTheLimit() {
        guard let limit = softLimit, let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        else { return }
        for name in names {
            guard let descriptor = Int32(name), descriptor > 2, Int(descriptor) >= limit else { continue }
            close(descriptor)
        }
    }
}
