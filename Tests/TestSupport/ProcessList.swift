public import Foundation

/// Processes found with `pgrep`, for end-to-end tests that check no child outlives a run.
public enum ProcessList {
    /// The pids `pgrep` finds with `arguments` (`["-P", "123"]` for the children of 123).
    public static func pids(_ arguments: [String]) -> [pid_t] {
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        pgrep.arguments = arguments
        let pipe = Pipe()
        pgrep.standardOutput = pipe
        guard (try? pgrep.run()) != nil else { return [] }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        pgrep.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { pid_t($0) }
    }

    /// The children of `parent`.
    public static func children(of parent: pid_t) -> [pid_t] {
        pids(["-P", String(parent)])
    }

    /// Whether `pid` has taken `signal` from its default action — ignores or catches it (`/proc/PID/status`'s
    /// `SigIgn` and `SigCgt`): a runner does once its interrupt handler is installed.
    public static func handles(_ signal: Int32, pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let bit = UInt64(1) << UInt64(signal - 1)
        return status.split(separator: "\n").contains { line in
            guard line.hasPrefix("SigIgn:") || line.hasPrefix("SigCgt:"),
                let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & bit != 0
        }
    }

    /// Whether `pid` is gone or a zombie (killed, not yet reaped by whoever inherited it).
    public static func hasEnded(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
